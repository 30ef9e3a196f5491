import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { App, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Key } from 'aws-cdk-lib/aws-kms';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildFunctions, type FunctionBundle } from '../../infra/bundles';
import { AppFunction } from '../../infra/constructs/app-function';
import { lambdaContext, toEvent } from '../../infra/local/router';
import { OPENAPI_FILE } from '../../lib/docs/openapi-file';
import { acceptsGzip } from '../../lib/http/compress';
import type { RouteDef } from '../../lib/http/route';
import { buildOpenApiDocument, withServer } from '../../lib/openapi/document';
import { openApiFileText } from '../../lib/openapi/file';
import { routes } from '../../lib/routes';
import { systemRoutes } from '../../lib/routes/system';

const root = join(import.meta.dirname, '..', '..');
const OPERATIONS = ['getOpenApi', 'getOpenApiUnversioned'] as const;
type Handler = (
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<APIGatewayProxyStructuredResultV2 & { headers: Record<string, string>; body: string }>;

/**
 * The OpenAPI functions as the builds make them (issue 22): the document is rendered at build
 * time into openapi.json beside the bundle, which carries neither the builder nor zod-openapi,
 * and the function answers exactly what the builder makes, for the server the request came to.
 */
describe('the OpenAPI functions as built', () => {
  const document = buildOpenApiDocument();
  let bundles: FunctionBundle[] = [];
  const handlers = new Map<string, Handler>();

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-bundle-'));
    ({ bundles } = await buildFunctions(
      root,
      dir,
      OPERATIONS.map((operation) => `functions/system/${operation}`),
    ));
    for (const [i, operation] of OPERATIONS.entries())
      handlers.set(operation, ((await import(pathToFileURL(bundles[i]!.file).href)) as { handler: Handler }).handler);
  }, 120_000);

  const ask = (operation: (typeof OPERATIONS)[number], headers: Record<string, string>) => {
    const route = systemRoutes[operation];
    return handlers.get(operation)!(
      toEvent({ method: 'GET', url: route.path, headers }, { route }, {}, 'r1'),
      lambdaContext(operation, 'r1'),
    );
  };

  it('are the prebuilt rows, and bare (a prebuilt answer is sent as it is, never in the envelope)', () => {
    const prebuilt = Object.entries(routes as Record<string, RouteDef>).filter(([, route]) => route.prebuilt);
    expect(prebuilt.map(([operation]) => operation)).toEqual([...OPERATIONS]);
    for (const [operation, route] of prebuilt) expect(route.envelope, operation).toBe(false);
  });

  it('carry neither the builder nor zod-openapi, and have the build-time file beside them', () => {
    const text = openApiFileText();
    for (const bundle of bundles) {
      expect(
        Object.keys(bundle.inputs).filter(
          (path) => path.includes('node_modules/zod-openapi/') || path.startsWith('lib/openapi/'),
        ),
        bundle.name,
      ).toEqual([]);
      expect(bundle.bytes, bundle.name).toBeLessThan(500 * 1024);
      expect(
        readFileSync(join(dirname(bundle.file), OPENAPI_FILE), 'utf8') === text,
        `${bundle.name}: the file beside differs from a fresh render`,
      ).toBe(true);
    }
  });

  it("answer the builder's document for the request's server, with the headers they always sent", async () => {
    for (const operation of OPERATIONS) {
      const answer = await ask(operation, { host: 'api.glow.example', 'x-forwarded-proto': 'https' });
      expect(answer.statusCode, operation).toBe(200);
      expect(answer.isBase64Encoded).toBeFalsy();
      expect(JSON.parse(answer.body)).toEqual(withServer(document, 'https://api.glow.example'));
      expect(answer.headers).toMatchObject({
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'public, max-age=300',
        vary: 'Host, X-Forwarded-Proto, Accept-Encoding',
        'x-request-id': 'r1',
      });
      // Without a usable Host: the document as built, naming the local server.
      expect(JSON.parse((await ask(operation, {})).body)).toEqual(document);
    }
  });

  it('gzip the answer for a client that takes gzip (API Gateway does not)', async () => {
    const plain = await ask('getOpenApi', { host: 'api.glow.example' });
    const gzipped = await ask('getOpenApi', { host: 'api.glow.example', 'accept-encoding': 'gzip, deflate, br' });
    expect(gzipped.isBase64Encoded).toBe(true);
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    const bytes = Buffer.from(gzipped.body, 'base64');
    expect(bytes.length).toBeLessThan(Buffer.byteLength(plain.body) / 5);
    expect(gunzipSync(bytes).toString('utf8') === plain.body, 'the gzip is not of the plain answer').toBe(true);
    expect(
      (await ask('getOpenApi', { host: 'api.glow.example', 'accept-encoding': 'gzip;q=0, identity' })).headers[
        'content-encoding'
      ],
    ).toBeUndefined();
    for (const taken of ['gzip', 'br;q=1, GZIP;q=0.5', '*', 'x-gzip']) expect(acceptsGzip(taken), taken).toBe(true);
    for (const refused of [undefined, '', 'br', 'identity', 'gzip;q=0', 'gzip;q=0.000', '*;q=0', 'gzip;q=x'])
      expect(acceptsGzip(refused), refused).toBe(false);
  });

  it('get the same file beside the bundle from the CDK construct (NodejsFunction, its bundling hook)', () => {
    const app = new App({ outdir: mkdtempSync(join(tmpdir(), 'openapi-cdk-')) });
    const stack = new Stack(app, 'OpenApiBundle');
    new AppFunction(stack, 'GetOpenApi', {
      entry: join(root, 'functions/system/getOpenApi.ts'),
      projectRoot: root,
      description: 'getOpenApi',
      logGroupName: '/test/getOpenApi',
      logs: { key: new Key(stack, 'Logs'), retention: RetentionDays.ONE_DAY, removalPolicy: RemovalPolicy.DESTROY },
      filesBeside: systemRoutes.getOpenApi.filesBeside,
    });
    const out = app.synth().directory;
    const [asset] = readdirSync(out).filter((name) => name.startsWith('asset.'));
    expect(readdirSync(join(out, asset!)).sort()).toEqual(['index.mjs', OPENAPI_FILE]);
    expect(
      readFileSync(join(out, asset!, OPENAPI_FILE), 'utf8') ===
        readFileSync(join(dirname(bundles[0]!.file), OPENAPI_FILE), 'utf8'),
    ).toBe(true);
  }, 120_000);
});
