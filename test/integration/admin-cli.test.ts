import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { getCredential } from '../../lib/db/credentials';
import { readReportContext } from '../../lib/db/report-aggregates';
import { createPayment } from '../../lib/use-cases/payments';
import { call, makePractice, tokenFor } from '../fixtures/api';
import { makeClient } from '../fixtures/builders';
import { NY } from '../fixtures/dates';

const run = promisify(execFile);
const projectRoot = join(import.meta.dirname, '..', '..');

/**
 * `npm run admin -- ...` as a child process, on this test file's table and data directory: the
 * script's program under node with tsx's loader (as `npm start` runs), without npx's and tsx's
 * CLI processes around it (a second or more each). The npm script itself is run once, below.
 */
function admin(args: string[]) {
  return run(process.execPath, ['--import', 'tsx', 'infra/local/admin.ts', ...args], {
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
  it.each([['help'], ['--help'], ['-h']])('`%s` prints every command with an example, exit 0', async (flag) => {
    const { stdout } = await admin([flag]);
    for (const command of ['create-practice', 'create-credential', 'set-api-access', 'rebuild-aggregates']) {
      expect(stdout).toContain(`e.g. npm run -s admin -- ${command}`);
    }
  });

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
    expect(practice.body.data).toMatchObject({
      id: created.medspa_id,
      name: 'CLI Spa',
      api_access: 'enabled',
      time_zone: 'America/New_York',
    });
    // Enabled, and the credential is an admin one.
    expect((await call('GET', '/v1/credentials', { token })).status).toBe(200);
  });

  it('`npm run -s admin -- ... --json` prints only that JSON on stdout (no npm banner), so it pipes into jq', async () => {
    const { stdout } = await run(
      'npm',
      ['run', '-s', 'admin', '--', 'create-practice', '--name', 'Piped Spa', '--time-zone', 'Europe/London', '--json'],
      {
        cwd: projectRoot,
        timeout: 60_000,
        env: {
          ...process.env,
          DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT,
          TABLE_NAME: process.env.TABLE_NAME,
          DATA_DIR: process.env.DATA_DIR,
        },
      },
    );
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

  it('rebuild-aggregates recounts a practice from its records, prints the differences it fixed, and switches reports to it', async () => {
    const practice = await makePractice({ time_zone: NY });
    const client = await makeClient(practice);
    // Recorded while no stream consumer runs: the live counters miss it.
    const payment = await createPayment(
      practice.medspaId,
      { client_id: client.id, amount_cents: 12_345, method: 'cash' },
      new Date(),
    );
    const today = DateTime.fromISO(payment.created_at).setZone(NY).toISODate()!;
    const revenue = async () =>
      (await call('GET', `/v1/reports/revenue?from=${today}&to=${today}`, { token: practice.adminToken })).body.data
        .collected_cents;
    expect(await revenue()).toBe(0);

    const { stdout } = await admin([
      'rebuild-aggregates',
      '--medspa-id',
      practice.medspaId,
      '--settle-ms',
      '0',
      '--json',
    ]);
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({
      medspa_id: practice.medspaId,
      previous_generation: '1',
      live: result.generation,
      sources: { appointments: 0, payments: 1, sales: 0 },
      differences: 1,
    });
    expect(result.examples).toEqual([
      { kind: 'TOTALS', date: today, counter: 'collected_cents', live: 0, rebuilt: 12_345 },
    ]);
    expect((await readReportContext(practice.medspaId)).pointer).toMatchObject({
      active: result.generation,
      building: null,
    });
    expect(await revenue()).toBe(12_345);

    const again = JSON.parse(
      (await admin(['rebuild-aggregates', '--medspa-id', practice.medspaId, '--settle-ms', '0', '--verify', '--json']))
        .stdout,
    );
    expect(again).toMatchObject({ differences: 0, live: result.generation });

    const failure = await admin(['rebuild-aggregates', '--json']).then(
      () => null,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toContain('--medspa-id is required');
  }, 120_000);
});
