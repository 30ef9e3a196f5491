import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { esbuildOptions } from '../../infra/constructs/bundling';

/**
 * What of Node a cold start loads, for bundles built with the construct's settings, each in a
 * fresh Node process (`process.moduleLoadList`). Node loads much of itself lazily, on first use,
 * and some of it is costly: its web streams took about 6 ms of every cold start
 * (infra/constructs/web-globals.ts), a webhook block list built at import about 1 ms.
 */
const root = join(import.meta.dirname, '..', '..');
/** The bench's one-GetItem function: the SDK alone. */
const FLOOR = 'test/bench/cold-floor.ts';
const WEB_STREAMS = 'NativeModule internal/webstreams/readablestream';

const RUN = `
const before = new Set(process.moduleLoadList);
const { handler } = await import(process.argv[1]);
const imported = process.moduleLoadList.filter((name) => !before.has(name));
const invoke = process.argv[2] === 'invoke';
let outcome;
if (invoke) outcome = await handler({ pk: 'NO#ITEM', sk: 'NO#ITEM' }).then(({ statusCode }) => statusCode, (error) => error.name);
process.stdout.write(JSON.stringify({ outcome, imported, all: process.moduleLoadList }));
`;

let dir = '';
/** What the floor's import loads, read once for every function compared with it. */
let floorImports = new Set<string>();
const file = (name: string) => join(dir, `${name}.mjs`);
const coldStart = (bundleFile: string, invoke: boolean, env: NodeJS.ProcessEnv = {}) =>
  JSON.parse(
    execFileSync(
      process.execPath,
      ['--input-type=module', '-e', RUN, pathToFileURL(bundleFile).href, invoke ? 'invoke' : 'import'],
      {
        env: {
          ...process.env,
          AWS_REGION: 'us-east-1',
          AWS_ACCESS_KEY_ID: 'local',
          AWS_SECRET_ACCESS_KEY: 'local',
          ...env,
        },
      },
    ).toString(),
  ) as {
    outcome?: number | string;
    imported: string[];
    all: string[];
  };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cold-start-modules-'));
  const asBuilt = esbuildOptions(
    root,
    {
      floor: join(root, FLOOR),
      getClient: join(root, 'functions/clients/getClient.ts'),
      createToken: join(root, 'functions/auth/createToken.ts'),
    },
    dir,
  );
  const withoutStandIns = {
    ...esbuildOptions(root, { 'floor-without-stand-ins': join(root, FLOOR) }, dir),
    inject: [],
  };
  await Promise.all([build(asBuilt), build(withoutStandIns)]);
  floorImports = new Set(coldStart(file('floor'), false).imported);
}, 60_000);

describe('a cold start', () => {
  it("reads DynamoDB, and is refused by it, without loading Node's web streams; without the stand-ins it loads them", () => {
    const [ours, plain] = [file('floor'), file('floor-without-stand-ins')];
    // A refusal goes through the SDK's retry step, which asks whether the request body is a web stream.
    const refused = { TABLE_NAME: 'no_such_table' };
    const webStreams = (run: ReturnType<typeof coldStart>) => [run.outcome, run.all.includes(WEB_STREAMS)];
    expect([coldStart(ours, true), coldStart(ours, true, refused)].map(webStreams)).toEqual([
      [404, false],
      ['ResourceNotFoundException', false],
    ]);
    expect([coldStart(plain, true), coldStart(plain, true, refused)].map(webStreams)).toEqual([
      [404, true],
      ['ResourceNotFoundException', true],
    ]);
  }, 30_000);

  it.each(['getClient', 'createToken'])(
    "of an API function (%s) imports no more of Node than the SDK's own, but the logger's console and middy's timers",
    (name) => {
      const extra = coldStart(file(name), false).imported.filter((module) => !floorImports.has(module));
      expect(extra.sort()).toEqual(['NativeModule console', 'NativeModule timers/promises']);
    },
    30_000,
  );
});
