import { httpHandler } from '../../lib/http/handler';
import { systemRoutes } from '../../lib/routes/system';
import { buildOpenApiDocument } from '../../lib/openapi/document';

// Built once per container: the route table does not change at runtime.
let document: object | undefined;

export const handler = httpHandler(systemRoutes.getOpenApi, async () => ({
  data: (document ??= buildOpenApiDocument()),
  headers: { 'cache-control': 'public, max-age=300' },
}));
