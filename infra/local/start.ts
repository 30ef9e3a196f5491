/**
 * `npm start`: DynamoDB Local (data under DATA_DIR), the table, the demo practice, and every route
 * of the route table on one port, served by the same handlers the Lambdas run.
 */
import { openLocalEnvironment } from './environment';
import { createLocalServer, listen } from './http-server';
import { ensureDemoPractice } from './seed';

async function main() {
  const port = Number(process.env.PORT ?? 3000);
  process.env.TOKEN_ISSUER ??= 'medspa-api-local';
  const environment = await openLocalEnvironment({ owner: true });
  const demo = await ensureDemoPractice(environment.dataDir);
  const server = createLocalServer();
  const boundPort = await listen(server, port);
  const baseUrl = `http://127.0.0.1:${boundPort}`;

  console.log(`
medspa-api is running
  Base URL:       ${baseUrl}   (health: ${baseUrl}/health)
  DynamoDB:       ${environment.endpoint}   (data in ${environment.dataDir})
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
