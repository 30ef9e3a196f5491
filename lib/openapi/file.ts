import { SERVER_MARKS } from '../docs/openapi-file';
import * as systemRoutes from '../routes/system';
import { buildOpenApiDocument, withServer } from './document';

/**
 * The text of the file the OpenAPI functions serve (lib/docs/openapi-file.ts), made at build time:
 * the document with the request's server left as marks. Checked here against the rows' `response`
 * schema, once, instead of per request (the rows are `prebuilt`).
 */
export function openApiFileText(): string {
  const document = buildOpenApiDocument();
  systemRoutes.getOpenApi.response.parse(document);
  const unmarked = JSON.stringify(document);
  if (Object.values(SERVER_MARKS).some((mark) => unmarked.includes(mark)))
    throw new Error('the OpenAPI document has a server mark of its own');
  return JSON.stringify(withServer(document, SERVER_MARKS.url, SERVER_MARKS.description));
}
