import { allPhotosOf, deletePhotoItem } from '../db/photos';
import { deleteObject } from '../storage/photo-objects';

/** How many photos an erasure deletes at once. */
const ERASE_CONCURRENCY = 8;

/**
 * Erasing a client (section 5) deletes their photos: every image, then its item. Runs after the
 * client's deletion committed, so no new photo can be added; the index is eventually consistent,
 * so a photo created in the same instant can be missed (its upload URL still works for at most 15
 * minutes, and its object, never confirmed, is removed by the bucket's orphan rule).
 */
export async function erasePhotosOf(medspaId: string, clientId: string): Promise<void> {
  const photos = await allPhotosOf(medspaId, clientId);
  for (let start = 0; start < photos.length; start += ERASE_CONCURRENCY) {
    await Promise.all(
      photos.slice(start, start + ERASE_CONCURRENCY).map(async (photo) => {
        await deleteObject(photo.object_key);
        await deletePhotoItem(photo);
      }),
    );
  }
}
