import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/dynamo';

/**
 * `npm start` as a process supervisor would run it (`npm start & ... kill $!`): a signal to the
 * npm process stops the API, the pipeline and DynamoDB Local, with a line in the log; a busy port
 * names PORT. A fresh DATA_DIR and none of this test file's own DynamoDB settings.
 */
const root = join(import.meta.dirname, '..', '..');
const started: Array<{ child: ChildProcess; dataDir: string }> = [];

function npmStart(port: number) {
  const dataDir = mkdtempSync(join(tmpdir(), 'medspa-start-'));
  const { DYNAMODB_ENDPOINT: _endpoint, TABLE_NAME: _table, DATA_DIR: _data, LOG_LEVEL: _level, ...env } = process.env;
  const child = spawn('npm', ['start'], { cwd: root, env: { ...env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'WARN' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  started.push({ child, dataDir });
  return { child, dataDir, exited, output: () => output };
}

/** The processes whose command line names this data directory (DynamoDB Local's -dbPath). */
const processesUsing = (dataDir: string) => spawnSync('pgrep', ['-f', dataDir], { encoding: 'utf8' }).stdout.trim();

async function untilServing(port: number, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (output().includes('medspa-api is running')) {
      const health = await fetch(`http://127.0.0.1:${port}/health`).catch(() => null);
      if (health?.ok) return;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`npm start did not come up:\n${output()}`);
}

afterEach(() => {
  for (const { child, dataDir } of started.splice(0)) {
    if (child.exitCode === null) child.kill('SIGKILL');
    spawnSync('pkill', ['-KILL', '-f', dataDir]);
    rmSync(dataDir, { recursive: true, force: true });
  }
});

describe('npm start behaves like a server', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('%s to the npm process stops the API, the pipeline and DynamoDB Local, and says so', async (signal) => {
    const port = await freePort();
    const server = npmStart(port);
    await untilServing(port, server.output);
    expect(processesUsing(server.dataDir)).not.toBe('');
    server.child.kill(signal);
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain(`medspa-api: ${signal}; stopping`);
    expect(server.output()).toContain('medspa-api: stopped');
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
    expect(processesUsing(server.dataDir)).toBe('');
  });

  it('a port in use is named, with PORT as the way out, and nothing is left running', async () => {
    const port = await freePort();
    const busy: Server = createServer();
    await new Promise<void>((resolve) => busy.listen(port, '127.0.0.1', resolve));
    try {
      const server = npmStart(port);
      expect(await server.exited).toBe(1);
      expect(server.output()).toContain(`port ${port} is in use: set PORT`);
      expect(processesUsing(server.dataDir)).toBe('');
    } finally {
      busy.close();
    }
  });
});
