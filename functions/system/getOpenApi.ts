import { httpHandler } from '../../lib/http/handler';
import type { RouteDef } from '../../lib/http/route';
import { buildOpenApiDocument, serverUrlOf, withServer } from '../../lib/openapi/document';
import * as systemRoutes from '../../lib/routes/system';

// Built once per container (the route table does not change at run time); `servers` per request.
let document: Record<string, unknown> | undefined;

export const openApiHandler = (route: RouteDef & { operation: string }) =>
  httpHandler(route, async ({ headers }) => {
    document ??= buildOpenApiDocument();
    const serverUrl = serverUrlOf(headers);
    return {
      data: serverUrl ? withServer(document, serverUrl) : document,
      headers: { 'cache-control': 'public, max-age=300', vary: 'Host, X-Forwarded-Proto' },
    };
  });

export const handler = openApiHandler(systemRoutes.getOpenApi);
