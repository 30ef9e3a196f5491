import type { EventBridgeEvent } from 'aws-lambda';
import { clock } from '../../lib/clock';
import { logger } from '../../lib/log';
import { confirmArrival } from '../../lib/use-cases/photos';

/** S3's "Object Created" event as EventBridge delivers it (the fields read here). */
type ObjectCreated = EventBridgeEvent<'Object Created', { bucket: { name: string }; object: { key: string } }>;

/**
 * Invoked by the photos bucket's "Object Created" events under photos/ (lib/workers
 * `confirmPhotoUploads`): confirms the photo, or deletes an orphan. A failure throws, so the
 * asynchronous invocation is retried, then dead-lettered.
 */
export const handler = async (event: ObjectCreated) => {
  const outcome = await confirmArrival(event.detail.object.key, clock().now());
  // Keys hold ids only (no PHI).
  logger.info('photo upload arrived', { key: event.detail.object.key, outcome });
  return { outcome };
};
