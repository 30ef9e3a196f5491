import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildFunctions } from '../../infra/bundles';
import { lambdaBundling } from '../../infra/constructs/bundling';
import { DOCS_PACKAGE_FILES } from '../../lib/docs/page';
import { systemRoutes } from '../../lib/routes/system';

const root = join(import.meta.dirname, '..', '..');

/**
 * GET /docs deploys as routes like any other: the asset function, built with AppFunction's own
 * esbuild settings, runs where there is no node_modules (a Lambda's /var/task) and serves Swagger
 * UI's files from beside its bundle (the route row's `filesBeside`), which the CDK's bundling hook
 * copies there; its code stays a few KB.
 */
describe('the docs functions as the CDK bundles them', () => {
  it('serve Swagger UI from the files beside a small bundle', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docs-bundle-'));
    const [bundle] = (await buildFunctions(root, dir, ['functions/system/getDocsAsset'])).bundles;
    expect(bundle!.bytes).toBeLessThan(100 * 1024);
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    const { handler } = (await import(pathToFileURL(bundle!.file).href)) as {
      handler: (event: unknown) => Promise<{ statusCode: number; headers: Record<string, string>; body: string }>;
    };
    const event = (asset: string) => ({
      rawPath: `/docs/${asset}`,
      pathParameters: { asset },
      requestContext: { requestId: 'r1' },
    });
    const installed = (name: string) =>
      readFileSync(createRequire(import.meta.url).resolve(`swagger-ui-dist/${name}`), 'utf8');
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

  it('are copied beside the bundle by the CDK construct', () => {
    const hooks = lambdaBundling(root, systemRoutes.getDocsAsset.filesBeside).commandHooks!;
    const commands = hooks.afterBundling('/asset-input', '/asset-output');
    for (const name of Object.keys(DOCS_PACKAGE_FILES)) {
      const source = createRequire(import.meta.url).resolve(`swagger-ui-dist/${name}`);
      expect(commands).toContain(`cp '${source}' '/asset-output/${name}'`);
    }
    expect(lambdaBundling(root).commandHooks).toBeUndefined();
  });
});
