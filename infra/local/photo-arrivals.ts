import { runAsFunction } from '../../lib/aws/local-runtime';
import { config } from '../../lib/config';
import { workers } from '../../lib/workers';
import { handler } from '../../functions/workers/confirmPhotoUploads';

const { trigger } = workers.confirmPhotoUploads;

/**
 * The photos bucket's notification, locally (infra/local/object-store.ts `onObjectCreated`): an
 * object created under the worker's prefix runs the confirmPhotoUploads handler in process, as that
 * function (its synthesized role), with the "Object Created" event EventBridge hands it on AWS.
 */
export async function localPhotoArrival(key: string): Promise<void> {
  if (!key.startsWith(trigger.prefix)) return;
  const { AWS_REGION, PHOTOS_BUCKET } = config();
  await runAsFunction('confirmPhotoUploads', () =>
    handler({
      version: '0',
      id: crypto.randomUUID(),
      'detail-type': 'Object Created',
      source: 'aws.s3',
      account: '000000000000',
      time: new Date().toISOString(),
      region: AWS_REGION,
      resources: [],
      detail: { bucket: { name: PHOTOS_BUCKET ?? '' }, object: { key } },
    }),
  );
}
