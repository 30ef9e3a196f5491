import * as z from 'zod';
import { defineRoutes } from '../http/route';

/** The served OpenAPI document: its top-level shape; the rest is documented by itself. */
const OpenApiDocument = z
  .looseObject({
    openapi: z.string(),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.unknown()),
  })
  .describe('The OpenAPI 3.1 document of this API, generated from the route table');

/** Self-description (the health check stays with auth's section). */
export const systemRoutes = defineRoutes({
  getOpenApi: {
    method: 'GET', path: '/openapi.json', group: 'system', summary: 'This API\'s OpenAPI 3.1 document',
    auth: 'public', envelope: false, response: OpenApiDocument,
  },
  notFound: {
    method: 'GET', path: '/{proxy+}', group: 'system', summary: 'Any request that no route matches: 404 NOT_FOUND',
    auth: 'public', fallback: true,
  },
});
