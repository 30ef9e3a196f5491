import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  PutObjectTaggingCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { currentFunction, LOCAL_S3_SECRET, localS3AccessKey, requireStageEnvironment } from '../aws/local-runtime';
import { config } from '../config';
import {
  DOWNLOAD_URL_SECONDS,
  PENDING_UPLOAD_TAG,
  UPLOAD_URL_SECONDS,
  urlExpiry,
  type PhotoContentType,
} from '../domain/photos';

/**
 * The photos' object storage: S3 on AWS (the stage's bucket, KMS-encrypted, never public),
 * locally the S3-compatible store `npm start` and the tests run (infra/local/object-store.ts),
 * through the same SDK calls. Only this module speaks S3.
 */

const clients = new Map<string, S3Client>();

/**
 * One client per container on AWS (its role's credentials). Locally one per function, signing
 * with a key that names it, so the local store checks each request against that function's role.
 */
function s3(): S3Client {
  const fn = currentFunction();
  const id = fn ?? '';
  let client = clients.get(id);
  if (client) return client;
  const { S3_ENDPOINT, AWS_REGION } = config();
  client = new S3Client({
    region: AWS_REGION,
    // No checksum of an empty body signed into upload URLs (it would refuse the real bytes).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(S3_ENDPOINT
      ? {
          endpoint: S3_ENDPOINT,
          forcePathStyle: true,
          credentials: { accessKeyId: localS3AccessKey(fn), secretAccessKey: LOCAL_S3_SECRET },
        }
      : {}),
    maxAttempts: 3,
  });
  clients.set(id, client);
  return client;
}

/** Tests and the local server point the clients at another store. */
export function resetPhotoObjects(): void {
  for (const client of clients.values()) client.destroy();
  clients.clear();
}

function bucket(): string {
  requireStageEnvironment('PHOTOS_BUCKET');
  const name = config().PHOTOS_BUCKET;
  if (!name) throw new Error('PHOTOS_BUCKET is not set: the stage sets it on AWS, the local server and tests locally');
  return name;
}

export interface PhotoUpload {
  method: 'PUT';
  url: string;
  /** Every one must be sent as given: they are signed into the URL. */
  headers: Record<string, string>;
  expires_at: string;
}

/**
 * A pre-signed PUT for exactly the declared bytes: content type, length and the pending tag are
 * signed headers, so S3 refuses (403 SignatureDoesNotMatch) another type, another length or an
 * upload without the tag.
 */
export async function presignUpload(
  key: string,
  declared: { content_type: PhotoContentType; byte_size: number },
  now: Date,
): Promise<PhotoUpload> {
  const tagging = `${PENDING_UPLOAD_TAG.key}=${PENDING_UPLOAD_TAG.pending}`;
  const url = await getSignedUrl(
    s3(),
    new PutObjectCommand({
      Bucket: bucket(),
      Key: key,
      ContentType: declared.content_type,
      ContentLength: declared.byte_size,
      Tagging: tagging,
    }),
    {
      expiresIn: UPLOAD_URL_SECONDS,
      signingDate: now,
      signableHeaders: new Set(['content-type', 'content-length']),
      // Sent as a header (S3 does not take the tag from the query string of a pre-signed URL).
      unhoistableHeaders: new Set(['x-amz-tagging']),
    },
  );
  return {
    method: 'PUT',
    url,
    headers: {
      'Content-Type': declared.content_type,
      'Content-Length': String(declared.byte_size),
      'x-amz-tagging': tagging,
    },
    expires_at: urlExpiry(now, UPLOAD_URL_SECONDS),
  };
}

/** A pre-signed GET of the object, valid DOWNLOAD_URL_SECONDS. */
export async function presignDownload(key: string, now: Date): Promise<{ url: string; expires_at: string }> {
  const url = await getSignedUrl(s3(), new GetObjectCommand({ Bucket: bucket(), Key: key }), {
    expiresIn: DOWNLOAD_URL_SECONDS,
    signingDate: now,
  });
  return { url, expires_at: urlExpiry(now, DOWNLOAD_URL_SECONDS) };
}

const isNotFound = (error: unknown) =>
  error instanceof S3ServiceException && (error.name === 'NotFound' || error.$metadata.httpStatusCode === 404);

/** Whether the object has arrived (HeadObject; a missing object is a 404 because the role may list the bucket). */
export async function objectExists(key: string): Promise<boolean> {
  try {
    await s3().send(new HeadObjectCommand({ Bucket: bucket(), Key: key }));
    return true;
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  }
}

/**
 * Marks an arrived object as confirmed, so the lifecycle rule for orphaned uploads leaves it alone.
 * An object deleted meanwhile (its photo deleted) is left gone: there is nothing to keep.
 */
export async function confirmObject(key: string): Promise<void> {
  try {
    await s3().send(
      new PutObjectTaggingCommand({
        Bucket: bucket(),
        Key: key,
        Tagging: { TagSet: [{ Key: PENDING_UPLOAD_TAG.key, Value: PENDING_UPLOAD_TAG.confirmed }] },
      }),
    );
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}

/** Deletes the object (done when it is already gone, as S3's DeleteObject is). */
export async function deleteObject(key: string): Promise<void> {
  await s3().send(new DeleteObjectCommand({ Bucket: bucket(), Key: key }));
}
