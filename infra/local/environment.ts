import { existsSync, mkdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { resetConfig } from '../../lib/config';
import { ensureTable } from '../../lib/db/bootstrap';
import { resetDdb } from '../../lib/db/client';
import { startDynamoLocal } from './dynamo';

export interface LocalEnvironment {
  dataDir: string;
  endpoint: string;
  /** Stops what this process started (nothing when it joined a running server's database). */
  stop(): Promise<void>;
  /** Resolves if the DynamoDB Local this process started exits (never, when it started none). */
  lost: Promise<void>;
}

const endpointFile = (dataDir: string) => join(dataDir, 'dynamodb-endpoint.json');

async function answers(endpoint: string): Promise<boolean> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  try {
    await client.send(new ListTablesCommand({}));
    return true;
  } catch {
    return false;
  } finally {
    client.destroy();
  }
}

/** A DynamoDB Local that a running `npm start` owns for this DATA_DIR, if any. */
async function runningServerEndpoint(dataDir: string): Promise<string | null> {
  if (!existsSync(endpointFile(dataDir))) return null;
  const { endpoint } = JSON.parse(readFileSync(endpointFile(dataDir), 'utf8')) as { endpoint: string };
  return (await answers(endpoint)) ? endpoint : null;
}

/**
 * Points this process at DynamoDB: DYNAMODB_ENDPOINT if set, else the DynamoDB Local of a server
 * already running on DATA_DIR (so the admin command works beside it), else a new DynamoDB Local
 * keeping its data under DATA_DIR. Creates the table if missing.
 */
export async function openLocalEnvironment(options: { owner: boolean }): Promise<LocalEnvironment> {
  const dataDir = resolve(process.env.DATA_DIR ?? '.data');
  mkdirSync(dataDir, { recursive: true });
  process.env.DATA_DIR = dataDir;
  process.env.ALLOW_LOCAL_WEBHOOKS ??= 'true';
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

  let endpoint = process.env.DYNAMODB_ENDPOINT;
  let stop = async () => {};
  let lost = new Promise<void>(() => {});
  if (!endpoint) {
    const running = await runningServerEndpoint(dataDir);
    if (running && options.owner)
      throw new Error(
        `Another server is already using ${dataDir} (DynamoDB Local at ${running}); stop it or set DATA_DIR.`,
      );
    if (running) {
      endpoint = running;
    } else {
      const dbPath = join(dataDir, 'dynamodb');
      mkdirSync(dbPath, { recursive: true });
      const dynamo = await startDynamoLocal({ dbPath });
      endpoint = dynamo.endpoint;
      lost = dynamo.exited;
      if (options.owner) writeFileSync(endpointFile(dataDir), JSON.stringify({ endpoint, pid: process.pid }));
      stop = async () => {
        if (options.owner) rmSync(endpointFile(dataDir), { force: true });
        await dynamo.stop();
      };
    }
  }
  process.env.DYNAMODB_ENDPOINT = endpoint;
  resetConfig();
  resetDdb();
  await ensureTable();
  return { dataDir, endpoint, stop, lost };
}
