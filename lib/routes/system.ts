import * as z from '../schemas/zod';
import { OPENAPI_FILE } from '../docs/openapi-file';
import { DOCS_ASSET_NAMES, DOCS_ASSETS, DOCS_PACKAGE_FILES } from '../docs/page';
import { defineRoutes, route } from '../http/route';
import { doc } from '../schemas/common';

/** The served OpenAPI document: its top-level shape; the rest is documented by itself. */
const OpenApiDocument = doc(
  z.looseObject({
    openapi: doc(z.string(), 'The OpenAPI version.', '3.1.0'),
    info: doc(
      z.looseObject({
        title: doc(z.string(), 'The API name.', 'medspa-api'),
        version: doc(z.string(), 'The API version.', '0.1.0'),
      }),
      'Title, version, conventions.',
    ),
    paths: doc(z.record(z.string(), z.unknown()), 'Every operation, by path.', {}),
  }),
  'The OpenAPI 3.1 document of this API, generated from the route table; `servers` names the host that served it',
);

/** Rendered at build time into a file beside the bundle (lib/docs/openapi-file.ts), answered as it is. */
const getOpenApiRow = {
  method: 'GET',
  group: 'system',
  auth: 'public',
  envelope: false,
  touches: { table: false },
  response: OpenApiDocument,
  filesBeside: { [OPENAPI_FILE]: { generated: 'openapi' } },
  prebuilt: true,
} as const;

/** The reference page's files, by content type. */
const assetBodies = Object.fromEntries(
  [...new Set(Object.values(DOCS_ASSETS).map((type) => type.split(';')[0]))].map((type) => [
    type,
    {
      description: `One of ${DOCS_ASSET_NAMES.join(', ')}.`,
      example: type === 'text/css' ? '.swagger-ui{...}' : '/* Swagger UI */',
    },
  ]),
);

export const getOpenApi = /* @__PURE__ */ route('getOpenApi', () => ({
  ...getOpenApiRow,
  path: '/v1/openapi.json',
  summary: "This API's OpenAPI 3.1 document (event payloads in its `webhooks` section)",
}));

export const getOpenApiUnversioned = /* @__PURE__ */ route('getOpenApiUnversioned', () => ({
  ...getOpenApiRow,
  path: '/openapi.json',
  summary: 'The same document at its first, unversioned path',
  deprecated: true,
}));

export const getDocs = /* @__PURE__ */ route('getDocs', () => ({
  method: 'GET',
  path: '/docs',
  group: 'system',
  summary: 'The API reference for people (Swagger UI, served by this API; "try it" calls this host)',
  auth: 'public',
  envelope: false,
  touches: { table: false },
  produces: { 'text/html': { description: 'The reference page.', example: '<!doctype html>...' } },
}));

export const getDocsAsset = /* @__PURE__ */ route('getDocsAsset', () => ({
  method: 'GET',
  path: '/docs/{asset}',
  group: 'system',
  summary: 'A file of the reference page',
  auth: 'public',
  envelope: false,
  touches: { table: false },
  filesBeside: DOCS_PACKAGE_FILES,
  produces: assetBodies,
  errors: ['NOT_FOUND'],
  params: z.object({ asset: doc(z.enum(DOCS_ASSET_NAMES as [string, ...string[]]), 'The file.', 'swagger-ui.css') }),
}));

export const preflight = /* @__PURE__ */ route('preflight', () => ({
  method: 'OPTIONS',
  path: '/v1/{proxy+}',
  group: 'system',
  summary: 'The CORS preflight of every /v1 path (any origin: it cannot know the practice)',
  auth: 'public',
  envelope: false,
  preflight: true,
  touches: { table: false },
  errors: ['NOT_FOUND'],
}));

export const notFound = /* @__PURE__ */ route('notFound', () => ({
  method: 'GET',
  path: '/{proxy+}',
  group: 'system',
  summary: 'Any request that no route matches: 404 NOT_FOUND',
  auth: 'public',
  fallback: true,
  touches: { table: false },
}));

/** Self-description (the health check stays with auth's section). */
export const systemRoutes = /* @__PURE__ */ defineRoutes({
  getOpenApi,
  getOpenApiUnversioned,
  getDocs,
  getDocsAsset,
  preflight,
  notFound,
});
