import * as z from './zod';
import {
  MAX_PHOTO_BYTES,
  PHOTO_CONTENT_TYPES,
  PHOTO_PHASES,
  PHOTO_STATUSES,
  UPLOAD_URL_SECONDS,
  DOWNLOAD_URL_SECONDS,
} from '../domain/photos';
import { doc, EXAMPLE_TIME, IdOf, Instant, meta, OutId, schema, Timestamps } from './common';

/** Clinical photos (API reference, section 13). */

export const PhotoParams = /* @__PURE__ */ schema(() => z.object({ id: IdOf('photo', 'The photo id.') }));

export const CreatePhotoBody = /* @__PURE__ */ schema(() =>
  doc(
    z.strictObject({
      content_type: doc(
        z.enum(PHOTO_CONTENT_TYPES),
        'The image type; the upload must send exactly this.',
        'image/jpeg',
      ),
      byte_size: doc(
        z.number().check(z.int(), z.gte(1), z.lte(MAX_PHOTO_BYTES)),
        `The image's exact size in bytes, 1 to ${MAX_PHOTO_BYTES} (20 MB); the upload must be exactly this long.`,
        2_481_337,
      ),
      phase: doc(z.enum(PHOTO_PHASES), 'When it was taken relative to treatment.', 'before'),
      appointment_id: z.nullish(
        IdOf('appointment', "One of this client's appointments (else 404 APPOINTMENT_NOT_FOUND)."),
      ),
      area: z.nullish(
        doc(
          z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
          'The area photographed (1-100 characters), such as an injection site of the published list.',
          'glabella',
        ),
      ),
    }),
    'A photo to upload: what the upload will be (its type and exact size), and what it shows.',
  ),
);
export type CreatePhotoInput = z.output<typeof CreatePhotoBody>;

export const Photo = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      id: OutId('photo', 'The photo id.'),
      client_id: OutId('client', 'The client photographed.'),
      appointment_id: z.nullable(OutId('appointment', 'The appointment it belongs to, if any.')),
      phase: doc(z.enum(PHOTO_PHASES), 'When it was taken relative to treatment.', 'before'),
      area: z.nullable(doc(z.string(), 'The area photographed.', 'glabella')),
      content_type: doc(z.enum(PHOTO_CONTENT_TYPES), 'The image type.', 'image/jpeg'),
      byte_size: doc(z.number().check(z.int()), 'The image size in bytes.', 2_481_337),
      status: doc(
        z.enum(PHOTO_STATUSES),
        '`pending` until the upload has arrived in storage, then `ready`: as soon as the upload has arrived (storage notifies the API; a read that finds the object confirms it too).',
        'ready',
      ),
      download_url: z.optional(
        doc(
          z.string(),
          `Only when \`ready\`: a pre-signed GET of the image, valid ${DOWNLOAD_URL_SECONDS / 60} minutes. Never cache it; read the photo again for a new one.`,
          'https://medspa-api-prod-photos.s3.us-east-1.amazonaws.com/photos/...?X-Amz-Signature=...',
        ),
      ),
      download_expires_at: z.optional(
        Instant('Only when `ready`: when `download_url` stops working.', EXAMPLE_TIME.updated),
      ),
      ...Timestamps,
    }),
    { description: 'A clinical photo (PHI: encrypted at rest, never public; every read is audited).', id: 'Photo' },
  ),
);
export type Photo = z.output<typeof Photo>;

export const PhotoUpload = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      method: doc(z.literal('PUT'), 'Always PUT.'),
      url: doc(
        z.string(),
        `A pre-signed URL straight to object storage, valid ${UPLOAD_URL_SECONDS / 60} minutes. Send the image bytes as the body, with no Authorization header.`,
        'https://medspa-api-prod-photos.s3.us-east-1.amazonaws.com/photos/...?X-Amz-Signature=...',
      ),
      headers: doc(
        z.record(z.string(), z.string()),
        'Headers to send exactly as given: they are signed into the URL. Storage refuses (403) an upload of another type or length, or without them.',
        { 'Content-Type': 'image/jpeg', 'Content-Length': '2481337', 'x-amz-tagging': 'upload=pending' },
      ),
      expires_at: Instant('When the URL stops working.', EXAMPLE_TIME.updated),
    }),
    { description: 'Where and how to upload the image.', id: 'PhotoUpload' },
  ),
);

export const CreatedPhoto = /* @__PURE__ */ schema(() =>
  meta(z.extend(Photo, { upload: PhotoUpload }), {
    description: 'The new photo (`pending`) and its pre-signed upload.',
    id: 'CreatedPhoto',
  }),
);
export type CreatedPhoto = z.output<typeof CreatedPhoto>;
