import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { esbuildOptions } from '../../infra/constructs/bundling';

const root = join(import.meta.dirname, '..', '..');

/**
 * GET /docs deploys as routes like any other: the asset function, bundled with AppFunction's own
 * esbuild settings, runs where there is no node_modules (a Lambda's /var/task)
 * and still serves Swagger UI's files, which esbuild inlined as text.
 */
describe('the docs functions as the CDK bundles them', () => {
  it('serve Swagger UI from the bundle alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docs-bundle-'));
    const outfile = join(dir, 'index.mjs');
    await build({ ...esbuildOptions(root, { index: 'functions/system/getDocsAsset.ts' }, dir), logLevel: 'silent' });
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    const { handler } = (await import(pathToFileURL(outfile).href)) as { handler: (event: unknown) => Promise<{ statusCode: number; headers: Record<string, string>; body: string }> };
    const event = (asset: string) => ({ rawPath: `/docs/${asset}`, pathParameters: { asset }, requestContext: { requestId: 'r1' } });
    const installed = (name: string) => readFileSync(createRequire(import.meta.url).resolve(`swagger-ui-dist/${name}`), 'utf8');
    for (const name of ['swagger-ui.css', 'swagger-ui-bundle.js']) {
      const answer = await handler(event(name));
      expect(answer.statusCode, name).toBe(200);
      expect(answer.body === installed(name), `${name} differs from the installed file`).toBe(true);
    }
    expect((await handler(event('init.js'))).body).toContain('/v1/openapi.json');
    const missing = await handler(event('secrets.txt'));
    expect(missing.statusCode).toBe(404);
    expect(JSON.parse(missing.body)).toMatchObject({ success: false, error: { code: 'NOT_FOUND', request_id: 'r1' } });
  }, 60_000);
});
