import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';
import { resetConfig } from '../lib/config';
import { ensureTable } from '../lib/db/bootstrap';
import { resetDdb } from '../lib/db/client';
import { installLocalAws, writeUsedGrants } from '../infra/local/aws/runtime';

// Each test file (its own worker) gets a fresh table (without a stream unless the file calls
// useTableStream from fixtures/table-stream) and signing key on the shared DynamoDB Local.
process.env.DYNAMODB_ENDPOINT = inject('ddbEndpoint');
process.env.TABLE_NAME = `t_${randomUUID().slice(0, 8)}`;
// Every temporary directory the file makes (data dirs, checkpoints, builds) goes under its own,
// removed with it: os.tmpdir() reads TMPDIR on each call, and child processes inherit it.
const fileTmp = mkdtempSync(join(tmpdir(), 'medspa-test-'));
process.env.TMPDIR = fileTmp;
process.env.DATA_DIR = mkdtempSync(join(fileTmp, 'data-'));
resetConfig();
resetDdb();
// Every call a route or worker makes passes its synthesized role, as on AWS (README, "Local vs AWS").
await installLocalAws();

beforeAll(async () => {
  await ensureTable({ stream: false });
});

afterAll(() => {
  writeUsedGrants(inject('iamUsageDir'));
  rmSync(fileTmp, { recursive: true, force: true });
});
