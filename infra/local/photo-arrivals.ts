import { runAsFunction } from '../../lib/aws/local-runtime';
import { clock } from '../../lib/clock';
import { confirmArrival } from '../../lib/use-cases/photos';
import { workers } from '../../lib/workers';

const { trigger } = workers.confirmPhotoUploads;

/**
 * The photos bucket's notification, locally (infra/local/object-store.ts `onObjectCreated`): an
 * object created under the worker's prefix runs confirmPhotoUploads in process, as that function
 * (its synthesized role), as the EventBridge rule invokes it on AWS.
 */
export async function localPhotoArrival(key: string): Promise<void> {
  if (!key.startsWith(trigger.prefix)) return;
  await runAsFunction('confirmPhotoUploads', () => confirmArrival(key, clock().now()));
}
