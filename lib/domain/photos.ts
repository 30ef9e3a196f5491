/**
 * Clinical photos (API reference, section 13): what an upload may declare and how long its
 * pre-signed URLs live. Pure: the object storage itself is lib/storage/photo-objects.ts.
 */

export const PHOTO_CONTENT_TYPES = ['image/jpeg', 'image/png', 'image/heic'] as const;
export type PhotoContentType = (typeof PHOTO_CONTENT_TYPES)[number];

export const PHOTO_PHASES = ['before', 'after', 'other'] as const;
export type PhotoPhase = (typeof PHOTO_PHASES)[number];

export const PHOTO_STATUSES = ['pending', 'ready'] as const;
export type PhotoStatus = (typeof PHOTO_STATUSES)[number];

/** 20 MB (decimal, as the contract writes it): the largest declared `byte_size`. */
export const MAX_PHOTO_BYTES = 20_000_000;

/** The upload URL is valid 15 minutes, a download URL 5 (section 13). */
export const UPLOAD_URL_SECONDS = 15 * 60;
export const DOWNLOAD_URL_SECONDS = 5 * 60;

/**
 * Every upload carries this object tag (signed into its URL, so it cannot be left out) until the
 * API has seen the object arrive and confirmed it (the storage's notification of the arrival, or
 * failing that a read); the bucket's lifecycle rule expires objects
 * still tagged pending after PENDING_UPLOAD_EXPIRY_DAYS: uploads whose photo was deleted or whose
 * client was erased while the URL was still valid.
 */
export const PENDING_UPLOAD_TAG = { key: 'upload', pending: 'pending', confirmed: 'confirmed' } as const;
export const PENDING_UPLOAD_EXPIRY_DAYS = 30;

/** All photo objects live under this prefix: the functions' grants name it, nothing else. */
export const PHOTO_OBJECT_PREFIX = 'photos/';

/** The object's key: ids only (no names or other PHI), grouped by practice and client. */
export const photoObjectKey = (medspaId: string, clientId: string, photoId: string) =>
  `${PHOTO_OBJECT_PREFIX}${medspaId}/${clientId}/${photoId}`;

/** The ids an object key names (the inverse of photoObjectKey), or null for a key no photo could have. */
export function parsePhotoObjectKey(key: string): { medspaId: string; clientId: string; photoId: string } | null {
  if (!key.startsWith(PHOTO_OBJECT_PREFIX)) return null;
  const parts = key.slice(PHOTO_OBJECT_PREFIX.length).split('/');
  if (parts.length !== 3 || parts.some((part) => part.length === 0)) return null;
  const [medspaId, clientId, photoId] = parts as [string, string, string];
  return { medspaId, clientId, photoId };
}

/**
 * What an arrived object means (decision 0028): its photo pending -> confirm it and mark it ready;
 * already ready -> confirm it again (a retry after a failure in between; re-tagging is harmless);
 * no photo under that key (deleted, its client erased, or a key no photo names) -> an orphan to delete.
 */
export type ArrivalAction = 'confirm' | 'orphan';
export const arrivalAction = (photo: { object_key: string } | null, key: string): ArrivalAction =>
  photo && photo.object_key === key ? 'confirm' : 'orphan';

/** When a URL signed at `now` for `seconds` stops working. */
export const urlExpiry = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000).toISOString();
