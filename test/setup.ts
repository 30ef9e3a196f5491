import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';
import { resetTokenSigner } from '../lib/auth/signing';
import { resetTokenPublicJwk } from '../lib/auth/token-key';
import { resetVerifier } from '../lib/auth/tokens';
import { setClock } from '../lib/clock';
import { resetConfig } from '../lib/config';
import { resetSecretKeys } from '../lib/crypto/named-secret';
import { ensureTable } from '../lib/db/bootstrap';
import { resetDdb } from '../lib/db/client';
import { resetPhotoObjects } from '../lib/storage/photo-objects';
import { installLocalAws, writeUsedGrants } from '../infra/local/aws/runtime';
import { MODEL_FILE_VARIABLE } from '../infra/local/aws/model';

// Files that run one after another in a worker slot share its table on the shared DynamoDB Local
// (VITEST_POOL_ID: 1..maxWorkers, never two running files at once): every test makes its own
// practice, so no test needs an empty table, and creating one per file cost more than most files'
// tests. A file that reads the stream, or needs to see the whole table, takes its own
// (fixtures/table-stream: useTableStream, useOwnTable).
const envOfFile = { ...process.env };
const endpoints = inject('ddbEndpoints');
process.env.DYNAMODB_ENDPOINT = endpoints[(Number(process.env.VITEST_POOL_ID ?? '1') - 1) % endpoints.length];
process.env.TABLE_NAME = `t_worker${process.env.VITEST_POOL_ID ?? '1'}`;
process.env.S3_ENDPOINT = inject('s3Endpoint');
process.env.PHOTOS_BUCKET = inject('photosBucket');
process.env[MODEL_FILE_VARIABLE] = inject('awsModelFile');
/**
 * tsx (the loader of `npm start`, the admin CLI and every `node --import tsx` child) caches its
 * transforms in `<os.tmpdir()>/tsx-<uid>`, keyed by each file's content: under the file's own TMPDIR
 * every child started from a file compiled the whole source tree again (about 1.5 s of CPU per
 * `npm start`). The file's TMPDIR links tsx's folder to the one outside it, shared as tsx shares it
 * between any two processes; rmSync of the file's folder removes the link, not the cache.
 */
function shareTsxCache(outside: string, fileTmp: string): void {
  const name = `tsx-${process.geteuid?.() ?? userInfo().username}`;
  mkdirSync(join(outside, name), { recursive: true });
  symlinkSync(join(outside, name), join(fileTmp, name), 'dir');
}
// Every temporary directory the file makes (data dirs, checkpoints, builds) goes under its own,
// removed with it: os.tmpdir() reads TMPDIR on each call, and child processes inherit it.
const fileTmp = mkdtempSync(join(tmpdir(), 'medspa-test-'));
shareTsxCache(tmpdir(), fileTmp);
process.env.TMPDIR = fileTmp;
process.env.DATA_DIR = mkdtempSync(join(fileTmp, 'data-'));
resetConfig();
resetDdb();
resetPhotoObjects();
// What a process derives from DATA_DIR once (the token key, the service secrets' local values):
// a worker's files share their modules (isolate: false), each with a DATA_DIR of its own.
resetTokenSigner();
resetTokenPublicJwk();
resetVerifier();
resetSecretKeys();
// The injectable clock as the last file may have left it.
setClock(null);
// Every call a route or worker makes passes its synthesized role, as on AWS (README, "Local vs AWS").
await installLocalAws();

beforeAll(async () => {
  await ensureTable({ stream: false });
});

afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in envOfFile)) delete process.env[name];
  Object.assign(process.env, envOfFile);
  writeUsedGrants(inject('iamUsageDir'));
  rmSync(fileTmp, { recursive: true, force: true });
});
