import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { getCredential } from '../../lib/db/credentials';
import { call, tokenFor } from '../fixtures/api';

const run = promisify(execFile);
const projectRoot = join(import.meta.dirname, '..', '..');

/** `npm run admin -- ...` as a child process, on this test file's table and data directory. */
function admin(args: string[]) {
  return run('npx', ['tsx', 'infra/local/admin.ts', ...args], {
    cwd: projectRoot,
    timeout: 60_000,
    env: {
      ...process.env,
      DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT,
      TABLE_NAME: process.env.TABLE_NAME,
      DATA_DIR: process.env.DATA_DIR,
    },
  });
}

describe('admin command', () => {
  it('create-practice --json prints exactly one JSON line whose credentials work against the API', async () => {
    const { stdout } = await admin(['create-practice', '--name', 'CLI Spa', '--json']);
    const lines = stdout.split('\n').filter((line) => line !== '');
    expect(lines).toHaveLength(1);
    expect(stdout).toBe(`${lines[0]}\n`);
    const created = JSON.parse(lines[0]) as { medspa_id: string; client_id: string; client_secret: string };
    expect(Object.keys(created).sort()).toEqual(['client_id', 'client_secret', 'medspa_id']);
    expect(created.medspa_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    // Only a hash of the secret is stored.
    const stored = await getCredential(created.medspa_id, created.client_id);
    expect(stored).toMatchObject({ role: 'admin', medspa_id: created.medspa_id });
    expect(JSON.stringify(stored)).not.toContain(created.client_secret);

    const token = await tokenFor(created.client_id, created.client_secret);
    const practice = await call('GET', '/v1/practice', { token });
    expect(practice.status).toBe(200);
    expect(practice.body.data).toMatchObject({ id: created.medspa_id, name: 'CLI Spa', api_access: 'enabled', time_zone: 'America/New_York' });
    // Enabled, and the credential is an admin one.
    expect((await call('GET', '/v1/credentials', { token })).status).toBe(200);
  });

  it('`npm run -s admin -- ... --json` prints only that JSON on stdout (no npm banner), so it pipes into jq', async () => {
    const { stdout } = await run('npm', ['run', '-s', 'admin', '--', 'create-practice', '--name', 'Piped Spa', '--time-zone', 'Europe/London', '--json'], {
      cwd: projectRoot,
      timeout: 60_000,
      env: { ...process.env, DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT, TABLE_NAME: process.env.TABLE_NAME, DATA_DIR: process.env.DATA_DIR },
    });
    expect(stdout.endsWith('\n')).toBe(true);
    expect(stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(Object.keys(JSON.parse(stdout)).sort()).toEqual(['client_id', 'client_secret', 'medspa_id']);
  });

  it('create-practice without --name fails with a usage message and prints nothing on stdout', async () => {
    const failure = await admin(['create-practice', '--json']).then(
      () => null,
      (error: { code?: number; stdout?: string; stderr?: string }) => error,
    );
    expect(failure).not.toBeNull();
    expect(failure!.code).toBe(2);
    expect(failure!.stdout).toBe('');
    expect(failure!.stderr).toContain('--name is required');
  });
});
