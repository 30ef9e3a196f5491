import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { esbuildOptions } from '../../infra/constructs/bundling';

/**
 * A bundle built with the construct's settings makes a DynamoDB call, response and all, without
 * loading Node's web streams (infra/constructs/web-globals.ts: about 6 ms of every cold start),
 * and the same bundle built without the stand-ins does load them: what this test would see if
 * they stopped working. The bundle is the bench's one-GetItem function (test/bench/cold-floor.ts),
 * run in a fresh Node process against this file's table.
 */
const root = join(import.meta.dirname, '..', '..');
const FLOOR = 'test/bench/cold-floor.ts';
const RUN = `
const { handler } = await import(process.argv[1]);
const { statusCode } = await handler({ pk: 'NO#ITEM', sk: 'NO#ITEM' });
process.stdout.write(JSON.stringify({ statusCode, webStreams: process.moduleLoadList.includes('NativeModule internal/webstreams/readablestream') }));
`;

let dir = '';
const bundle = async (name: string, inject: boolean) => {
  const options = esbuildOptions(root, { [name]: join(root, FLOOR) }, dir);
  await build({ ...options, ...(inject ? {} : { inject: [] }) });
  return join(dir, `${name}.mjs`);
};
const coldStart = (file: string) =>
  JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', RUN, pathToFileURL(file).href], { env: { ...process.env, AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' } }).toString()) as { statusCode: number; webStreams: boolean };

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'web-globals-'));
});

describe('a function bundle', () => {
  it("reads DynamoDB without loading Node's web streams; without the stand-ins it loads them", async () => {
    const [ours, plain] = await Promise.all([bundle('as-built', true), bundle('without-stand-ins', false)]);
    expect(coldStart(ours)).toEqual({ statusCode: 404, webStreams: false });
    expect(coldStart(plain)).toEqual({ statusCode: 404, webStreams: true });
  }, 60_000);
});
