/**
 * `npm start`: DynamoDB Local (data under DATA_DIR), the table, the local object store for photos
 * (s3rver behind a SigV4 and IAM check, data under DATA_DIR/s3), the demo practice, every route
 * of the route table on one port (the same handlers the Lambdas run), and the event pipeline
 * (stream -> events -> webhook deliveries, reminders) in process.
 */
import { join } from 'node:path';
import { assertPortFree, portInUse } from './port';

/** How long a shutdown may wait for work in flight (a webhook attempt takes up to 10 s, and is journaled). */
const SHUTDOWN_GRACE_MS = 8_000;

async function main() {
  const port = Number(process.env.PORT ?? 3000);
  // First: a busy port fails in a moment, before seconds of module loading, DynamoDB Local and
  // DATA_DIR, so there is nothing to undo. The listen below still names it if the port is taken since.
  await assertPortFree(port);
  const [
    { installLocalAws },
    { openLocalEnvironment },
    { createLocalServer, listen },
    { startLocalPipeline },
    { ensureDemoPractice },
    { startLocalObjectStore },
    { resetConfig },
    { localPhotoArrival },
  ] = await Promise.all([
    import('./aws/runtime'),
    import('./environment'),
    import('./http-server'),
    import('./pipeline'),
    import('./seed'),
    import('./object-store'),
    import('../../lib/config'),
    import('./photo-arrivals'),
  ]);
  process.env.TOKEN_ISSUER ??= 'medspa-api-local';
  // Locally, failed webhook deliveries retry within minutes rather than the contract's ~22 hours.
  process.env.WEBHOOK_RETRY_SCHEDULE ??= '1s,5s,30s,2m,10m,1h';
  // Before the first SDK client: every call a route or worker makes passes its synthesized role.
  const iam = await installLocalAws();
  const environment = await openLocalEnvironment({ owner: true });
  // Photos (section 13): pre-signed uploads and downloads go straight to this store, as to S3.
  const objects = await startLocalObjectStore({
    directory: join(environment.dataDir, 's3'),
    // Uploads are confirmed on arrival, as the bucket's notification does on AWS.
    onObjectCreated: localPhotoArrival,
  });
  process.env.S3_ENDPOINT = objects.endpoint;
  process.env.PHOTOS_BUCKET = objects.bucket;
  resetConfig();
  const demo = await ensureDemoPractice(environment.dataDir);
  const pipeline = await startLocalPipeline();
  const server = createLocalServer();
  const boundPort = await listen(server, port).catch(async (error: NodeJS.ErrnoException) => {
    await pipeline.stop();
    await objects.stop();
    await environment.stop();
    throw error.code === 'EADDRINUSE' ? portInUse(port) : error;
  });
  const baseUrl = `http://127.0.0.1:${boundPort}`;

  console.log(`
medspa-api is running
  Base URL:       ${baseUrl}   (health: ${baseUrl}/health)
  Reference:      ${baseUrl}/docs   (OpenAPI: ${baseUrl}/v1/openapi.json)
  DynamoDB:       ${environment.endpoint}   (data in ${environment.dataDir})
  Photos (S3):    ${objects.endpoint}   (bucket ${objects.bucket}, data in ${join(environment.dataDir, 's3')}; signatures and IAM checked as S3 does)
  IAM:            ${iam ? `each function's synthesized role of stage ${iam.stage} enforced (LOCAL_IAM=off to skip)` : 'not enforced (LOCAL_IAM=off)'}
  Events:         table stream -> webhooks (POST /v1/webhooks; http://127.0.0.1 receivers allowed locally)
  Demo practice:  ${demo.medspa_id}
  client_id:      ${demo.client_id}
  client_secret:  ${demo.client_secret}

  curl -s -X POST ${baseUrl}/v1/auth/token -H 'content-type: application/json' \\
    -d '{"client_id":"${demo.client_id}","client_secret":"${demo.client_secret}"}'
`);

  let stopping = false;
  const shutdown = async (reason: string, code = 0) => {
    if (stopping) return;
    stopping = true;
    console.log(`medspa-api: ${reason}; stopping the API, the event pipeline and DynamoDB Local`);
    // Work in flight gets a few seconds; then the process goes anyway (DynamoDB Local with it).
    setTimeout(() => {
      console.error('medspa-api: shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    server.close();
    server.closeAllConnections();
    await pipeline.stop().catch(() => undefined);
    await objects.stop();
    await environment.stop();
    console.log('medspa-api: stopped');
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGHUP', () => void shutdown('SIGHUP'));
  void environment.lost.then(() => shutdown('DynamoDB Local exited', 1));
}

main().catch((error) => {
  console.error(`npm start failed: ${(error as Error).message}`);
  process.exit(1);
});
