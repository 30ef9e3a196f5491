import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import S3rver from 's3rver';
import AWSAccount from 's3rver/lib/models/account.js';
import { TaggingConfiguration } from 's3rver/lib/models/config.js';
import { functionOfLocalS3Key, LOCAL_S3_SECRET, localS3AccessKey } from '../../lib/aws/local-runtime';
import type { IamRequest } from './aws/dynamodb-requests';
import type { LocalAwsModel } from './aws/model';
import { deniedAs } from './aws/runtime';
import { checkSignature, type SignatureCheck } from './s3-signature';

/**
 * The local S3 (section 13's photos): s3rver (an npm package, files under `directory`) behind a
 * front that does what s3rver does not and S3 does: it checks every request's SigV4 signature and
 * a pre-signed URL's expiry (./s3-signature.ts), and, when the local runtime enforces IAM, checks
 * the request against the role of the function that signed it (its access key names it, lib/aws/
 * local-runtime.ts `localS3AccessKey`), as S3 authorizes a pre-signed URL with its signer's
 * permissions when it is used. Refusals are S3's XML errors with S3's codes. An accepted PUT sets
 * the object's tags from its `x-amz-tagging` header, and runs the bucket's notification if given.
 */

export interface LocalObjectStore {
  endpoint: string;
  bucket: string;
  stop(): Promise<void>;
}

/** The local photos bucket's name (the synthesized stage's bucket stands behind it for IAM). */
export const LOCAL_PHOTOS_BUCKET = 'medspa-photos';

const xmlError = (response: ServerResponse, status: number, code: string, message: string, head: boolean) => {
  const requestId = randomUUID();
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')}</Message><RequestId>${requestId}</RequestId></Error>`;
  response.writeHead(status, { 'content-type': 'application/xml', 'x-amz-request-id': requestId });
  response.end(head ? undefined : body);
};

/** The IAM requests S3 authorizes for a request: the object action, and the key's use S3 makes with the caller's rights. */
function iamRequestsOf(request: IncomingMessage, path: { bucket: string; key?: string }, exists: boolean) {
  return (model: LocalAwsModel): IamRequest[] => {
    const bucketArn = model.photosBucket.arn;
    const objectArn = `${bucketArn}/${path.key ?? ''}`;
    const viaS3 = (action: string): IamRequest[] =>
      model.photosBucket.keyArn
        ? [
            {
              action,
              resource: model.photosBucket.keyArn,
              context: { 'kms:ViaService': `s3.${model.region}.amazonaws.com` },
            },
          ]
        : [];
    const object = (action: string): IamRequest => ({ action, resource: objectArn, context: {} });
    const tagging = new URL(request.url ?? '/', 'http://local').searchParams.has('tagging');
    if (!path.key) return [{ action: 's3:ListBucket', resource: bucketArn, context: {} }];
    switch (request.method) {
      case 'PUT':
        if (tagging) return [object('s3:PutObjectTagging')];
        return [
          object('s3:PutObject'),
          ...(request.headers['x-amz-tagging'] ? [object('s3:PutObjectTagging')] : []),
          ...viaS3('kms:GenerateDataKey'),
        ];
      case 'GET':
      case 'HEAD': {
        if (tagging) return [object('s3:GetObjectTagging')];
        // A missing object is a 404 only to a caller that may list the bucket (else S3 answers 403).
        const missing = exists ? [] : [{ action: 's3:ListBucket', resource: bucketArn, context: {} }];
        return [object('s3:GetObject'), ...missing, ...(request.method === 'GET' ? viaS3('kms:Decrypt') : [])];
      }
      case 'DELETE':
        return [object(tagging ? 's3:DeleteObjectTagging' : 's3:DeleteObject')];
      default:
        return [object(`s3:${request.method}`)];
    }
  };
}

/** Why the request may not go on (its S3 error), or null. */
async function refusal(
  request: IncomingMessage,
  bucket: string,
  exists: (key: string) => Promise<boolean>,
): Promise<Exclude<SignatureCheck, { ok: true }> | null> {
  const signature = await checkSignature(request, new Date());
  if (!signature.ok) return signature;
  const known = signature.accessKeyId === localS3AccessKey(undefined);
  const fn = functionOfLocalS3Key(signature.accessKeyId);
  if (!known && !fn)
    return {
      ok: false,
      status: 403,
      code: 'InvalidAccessKeyId',
      message: 'The AWS Access Key Id you provided does not exist in our records.',
    };
  // s3rver knows only the keys it was told of (it checks their existence, never the signature).
  AWSAccount.DUMMY_ACCOUNT.createKeyPair(signature.accessKeyId, LOCAL_S3_SECRET);
  if (!fn) return null; // the operator's (tests' and tools' own calls): not checked, as elsewhere
  const [, pathBucket, ...key] = new URL(request.url ?? '/', 'http://local').pathname.split('/');
  if (pathBucket !== bucket) return { ok: false, status: 403, code: 'AccessDenied', message: 'Access Denied' };
  const objectKey = key.length ? decodeURIComponent(key.join('/')) : undefined;
  let denied: string | undefined;
  try {
    const found = objectKey !== undefined && (await exists(objectKey));
    denied = await deniedAs(fn, iamRequestsOf(request, { bucket, key: objectKey }, found));
  } catch {
    return { ok: false, status: 403, code: 'InvalidAccessKeyId', message: `No function ${fn} in the stage` };
  }
  return denied ? { ok: false, status: 403, code: 'AccessDenied', message: denied } : null;
}

/** The object key a PUT creates (not a subresource such as ?tagging), or undefined. */
function createdKey(request: IncomingMessage, bucket: string): string | undefined {
  if (request.method !== 'PUT') return undefined;
  const url = new URL(request.url ?? '/', 'http://local');
  // A pre-signed PutObject's query holds only X-Amz-* parameters and the SDK's x-id; anything else is a subresource (?tagging).
  if ([...url.searchParams.keys()].some((name) => !name.startsWith('X-Amz-') && name !== 'x-id')) return undefined;
  const [, pathBucket, ...key] = url.pathname.split('/');
  return pathBucket === bucket && key.length ? decodeURIComponent(key.join('/')) : undefined;
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The tag set of an `x-amz-tagging` header (`k=v&k2=v2`) as s3rver keeps it: S3 sets an object's
 * tags from that header on PUT (a new object replaces the old one's tags); s3rver ignores it.
 */
function taggingOf(header: string) {
  const tags = [...new URLSearchParams(header)]
    .map(([key, value]) => `<Tag><Key>${escapeXml(key)}</Key><Value>${escapeXml(value)}</Value></Tag>`)
    .join('');
  return TaggingConfiguration.validate(`<Tagging><TagSet>${tags}</TagSet></Tagging>`);
}

/**
 * Holds back the answer to an accepted PUT until `work` (its tags, then the bucket's notification)
 * has run, so whoever uploads sees its effects once the PUT is answered (no waiting in tests). A
 * failure is logged, as S3 answers the PUT whatever its notifications do.
 */
function notifyBeforeAnswering(response: ServerResponse, work: () => Promise<void>) {
  const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
  response.end = ((...args: unknown[]) => {
    if (response.statusCode !== 200) return end(...args);
    work().then(
      () => end(...args),
      (error: Error) => {
        console.error(`object-created notification failed: ${error.message}`);
        end(...args);
      },
    );
    return response;
  }) as ServerResponse['end'];
}

/**
 * Starts the store on 127.0.0.1 (`port` 0: any free port) with one bucket, kept under `directory`.
 * `onObjectCreated` is the bucket's event notification (S3 -> EventBridge -> a worker on AWS): it
 * runs, in process, after each object PUT the store accepted and before that PUT is answered.
 */
export async function startLocalObjectStore(options: {
  directory: string;
  port?: number;
  bucket?: string;
  onObjectCreated?: (key: string) => Promise<void>;
}): Promise<LocalObjectStore> {
  const bucket = options.bucket ?? LOCAL_PHOTOS_BUCKET;
  mkdirSync(options.directory, { recursive: true });
  const s3rver = new S3rver({ directory: options.directory, silent: true, configureBuckets: [{ name: bucket }] });
  await s3rver.configureBuckets();
  const backend = s3rver.callback();
  const server = createServer((request, response) => {
    refusal(request, bucket, (key) => s3rver.store.existsObject(bucket, key)).then(
      (refused) => {
        if (!refused) {
          const created = createdKey(request, bucket);
          if (created) {
            const tagging = request.headers['x-amz-tagging'];
            notifyBeforeAnswering(response, async () => {
              if (typeof tagging === 'string') await s3rver.store.putSubresource(bucket, created, taggingOf(tagging));
              else await s3rver.store.deleteSubresource(bucket, created, 'tagging');
              await options.onObjectCreated?.(created);
            });
          }
          return backend(request, response);
        }
        // Drain what the client sends (an upload body), then answer as S3 does.
        request.resume();
        xmlError(response, refused.status, refused.code, refused.message, request.method === 'HEAD');
      },
      (error: Error) => xmlError(response, 500, 'InternalError', error.message, request.method === 'HEAD'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
