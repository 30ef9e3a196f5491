import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFunctions, bytesByPackage, functionModules, type FunctionBundle } from '../../infra/bundles';
import { handlerModule, photoAccessOf, readsTable, type RouteDef } from '../../lib/http/route';
import { routes } from '../../lib/routes';
import { workers, type WorkerDef } from '../../lib/workers';

/**
 * Every function, built the way the CDK construct builds it (infra/constructs/bundling.ts, one
 * esbuild call for all of them), stays within its budget and carries only what its operation
 * needs. A budget, not a timing: sizes are the same on any machine. `npm run bench` prints the
 * sizes and cold starts.
 */
const BUDGET_BYTES = 500 * 1024;
/**
 * Functions whose row touches photo objects carry the S3 client too (its REST-XML protocol and
 * the presigner, about 60 KB beyond the budget): they get this one instead.
 */
const PHOTO_BUDGET_BYTES = 600 * 1024;
const budgetOf = (bundle: FunctionBundle) => {
  const operation = bundle.name.split('/').pop()!;
  const route = (routes as Record<string, RouteDef>)[operation];
  const worker = (workers as Record<string, WorkerDef>)[operation];
  const photos = route ? photoAccessOf(route).length > 0 : (worker?.binds.photos?.length ?? 0) > 0;
  return photos ? PHOTO_BUDGET_BYTES : BUDGET_BYTES;
};
const root = join(import.meta.dirname, '..', '..');
const outdir = mkdtempSync(join(tmpdir(), 'medspa-bundle-test-'));
let bundles: FunctionBundle[] = [];

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
/**
 * Importing `{ z }` (or the default) from zod (lib/schemas/zod, 'zod/mini' or 'zod') rather than
 * `* as z` makes esbuild keep zod's whole namespace, every locale included (+360 KB): name the
 * modules that do.
 */
function namedZodImports(bundle: FunctionBundle): string {
  const offenders = Object.keys(bundle.inputs)
    .filter((path) => !path.includes('node_modules') && path.endsWith('.ts'))
    .filter((path) =>
      /import\s+(?:\w+\s*,\s*)?(?:\{[^}]*\bz\b[^}]*\}|z)\s+from\s+['"](?:zod(?:\/mini)?|[./]*(?:schemas\/)?zod)['"]/.test(
        readFileSync(join(root, path), 'utf8'),
      ),
    );
  return offenders.length
    ? ` (every zod locale: ${offenders.join(', ')} import { z } from zod; use import * as z from '../schemas/zod')`
    : '';
}
const carrying = (test: (path: string) => boolean) =>
  bundles
    .filter((b) => Object.keys(b.inputs).some(test))
    .map((b) => b.name)
    .sort();

beforeAll(async () => {
  ({ bundles } = await buildFunctions(root, outdir));
}, 120_000);

afterAll(() => rmSync(outdir, { recursive: true, force: true }));

describe('function bundles', () => {
  it('are built for every route table row and every worker', () => {
    expect(bundles.map((b) => b.name)).toEqual(functionModules());
    expect(bundles.length).toBe(Object.keys(routes).length + Object.keys(workers).length);
  });

  it(`each stay within ${kb(BUDGET_BYTES)} minified (${kb(PHOTO_BUDGET_BYTES)} with the S3 client), the AWS SDK included`, () => {
    const over = bundles
      .filter((b) => b.bytes > budgetOf(b))
      .map((b) => {
        const heaviest = bytesByPackage(b)
          .slice(0, 6)
          .map(([name, bytes]) => `${name} ${kb(bytes)}`)
          .join(', ');
        return `${b.name}: ${kb(b.bytes)}, heaviest ${heaviest}${namedZodImports(b)}`;
      });
    expect(over).toEqual([]);
  });

  it('never carry the local runtime or its IAM simulator (AGPL, a dev dependency: infra/local/aws)', () => {
    expect(carrying((path) => path.includes('@cloud-copilot/') || path.startsWith('infra/local/'))).toEqual([]);
  });

  it('carry the KMS client only where tokens are signed', () => {
    expect(carrying((path) => path.includes('node_modules/@aws-sdk/client-kms/'))).toEqual([
      'functions/auth/createToken',
    ]);
  });

  it('carry no DynamoDB client where the route never reads the table (lib/http/tableless-handler.ts)', () => {
    const tableless = Object.entries(routes as Record<string, RouteDef>)
      .filter(([, route]) => !readsTable(route))
      .map(([operation, route]) => handlerModule(operation, route));
    expect(tableless.length).toBeGreaterThanOrEqual(8);
    const withClient = carrying((path) => path.includes('node_modules/@aws-sdk/client-dynamodb/'));
    expect(tableless.filter((name) => withClient.includes(name))).toEqual([]);
  });

  it('never carry the OpenAPI builder or zod-openapi (the document is a file made at build time beside its functions)', () => {
    expect(carrying((path) => path.startsWith('lib/openapi/') || path.includes('node_modules/zod-openapi/'))).toEqual(
      [],
    );
  });

  it('carry their own route row, not the other rows of their group (docs/decisions/0011)', () => {
    // Rows whose summary is a plain literal (generated ones are template strings in the bundle).
    const literal = Object.entries(routes as Record<string, RouteDef>).filter(
      ([, route]) => !/["'`\\$]/.test(route.summary),
    );
    const foreign = bundles.flatMap((bundle) => {
      const text = readFileSync(bundle.file, 'utf8');
      return literal
        .filter(([operation, route]) => !bundle.name.endsWith(`/${operation}`) && text.includes(route.summary))
        .map(([operation]) => `${bundle.name} carries ${operation}`);
    });
    expect(foreign).toEqual([]);
  });

  it("a kind's reads build none of its write schemas: a get, list or delete carries no create or PATCH body (lib/routes/resources.ts)", () => {
    // Text only a write body has: the client create body's default, the provider input's period rule.
    const writeOnly: Record<string, string> = {
      clients: 'Membership status (default none).',
      providers: 'end must be after start',
    };
    const carriers = bundles
      .filter((bundle) => /^functions\/(clients|providers)\/(get|list|delete)(Client|Provider)s?$/.test(bundle.name))
      .map((bundle) => ({
        name: bundle.name,
        text: readFileSync(bundle.file, 'utf8'),
        mark: writeOnly[bundle.name.split('/')[1]!]!,
      }));
    expect(carriers.map((bundle) => bundle.name)).toEqual([
      'functions/clients/deleteClient',
      'functions/clients/getClient',
      'functions/clients/listClients',
      'functions/providers/deleteProvider',
      'functions/providers/getProvider',
      'functions/providers/listProviders',
    ]);
    expect(carriers.filter((bundle) => bundle.text.includes(bundle.mark)).map((bundle) => bundle.name)).toEqual([]);
    // The marks are real: the create bodies' bundles carry them.
    const creates = bundles.filter((bundle) =>
      ['functions/clients/createClient', 'functions/providers/createProvider'].includes(bundle.name),
    );
    expect(
      creates.every((bundle) => readFileSync(bundle.file, 'utf8').includes(writeOnly[bundle.name.split('/')[1]!]!)),
    ).toBe(true);
  });

  it('never carry zod classic: the schemas are zod/mini, which builds faster and weighs less (docs/decisions/0013)', () => {
    expect(carrying((path) => /node_modules\/zod\/(?:v4\/classic\/|(?:v4\/)?index\.js$)/.test(path))).toEqual([]);
  });

  it("never import Node's web streams (infra/constructs/web-globals.ts: about 6 ms of a cold start)", () => {
    expect(
      bundles
        .filter((bundle) => /["'](?:node:)?stream\/web["']/.test(readFileSync(bundle.file, 'utf8')))
        .map((bundle) => bundle.name),
    ).toEqual([]);
  });

  it('carry their own section of the route table, never the whole table', () => {
    expect(carrying((path) => path === 'lib/routes/index.ts')).toEqual([]);
  });
});
