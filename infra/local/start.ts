/**
 * `npm start`: DynamoDB Local (data under DATA_DIR), the table, the demo practice, every route
 * of the route table on one port (the same handlers the Lambdas run), and the event pipeline
 * (stream -> events -> webhook deliveries, reminders) in process.
 */
import { installLocalAws } from './aws/runtime';
import { openLocalEnvironment } from './environment';
import { createLocalServer, listen } from './http-server';
import { startLocalPipeline } from './pipeline';
import { ensureDemoPractice } from './seed';

async function main() {
  const port = Number(process.env.PORT ?? 3000);
  process.env.TOKEN_ISSUER ??= 'medspa-api-local';
  // Locally, failed webhook deliveries retry within minutes rather than the contract's ~22 hours.
  process.env.WEBHOOK_RETRY_SCHEDULE ??= '1s,5s,30s,2m,10m,1h';
  // Before the first SDK client: every call a route or worker makes passes its synthesized role.
  const iam = await installLocalAws();
  const environment = await openLocalEnvironment({ owner: true });
  const demo = await ensureDemoPractice(environment.dataDir);
  const pipeline = await startLocalPipeline();
  const server = createLocalServer();
  const boundPort = await listen(server, port);
  const baseUrl = `http://127.0.0.1:${boundPort}`;

  console.log(`
medspa-api is running
  Base URL:       ${baseUrl}   (health: ${baseUrl}/health)
  Reference:      ${baseUrl}/docs   (OpenAPI: ${baseUrl}/v1/openapi.json)
  DynamoDB:       ${environment.endpoint}   (data in ${environment.dataDir})
  IAM:            ${iam ? `each function's synthesized role of stage ${iam.stage} enforced (LOCAL_IAM=off to skip)` : 'not enforced (LOCAL_IAM=off)'}
  Events:         table stream -> webhooks (POST /v1/webhooks; http://127.0.0.1 receivers allowed locally)
  Demo practice:  ${demo.medspa_id}
  client_id:      ${demo.client_id}
  client_secret:  ${demo.client_secret}

  curl -s -X POST ${baseUrl}/v1/auth/token -H 'content-type: application/json' \\
    -d '{"client_id":"${demo.client_id}","client_secret":"${demo.client_secret}"}'
`);

  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    server.close();
    server.closeAllConnections();
    await pipeline.stop();
    await environment.stop();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((error) => {
  console.error(`npm start failed: ${(error as Error).message}`);
  process.exit(1);
});
