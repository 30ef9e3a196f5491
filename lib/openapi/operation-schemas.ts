import { callableRoutes, type RouteDef } from '../http/route';
import { routes } from '../routes';
import { isList } from './operations';

/**
 * What the typed client's generator (infra/client-operations.ts) reads beside the document; the
 * OpenAPI functions, which serve the document only, leave this module out of their bundles.
 */

type Json = Record<string, any>;

/** Non-JSON answers by operation: their content types (the typed client does not call these). */
export const RAW_RESPONSES = /* @__PURE__ */ Object.fromEntries(
  callableRoutes(routes).flatMap(([operation, route]) => (route.produces ? [[operation, route.produces]] : [])),
);

/** The JSON Schemas of one operation's input and output, read back from the document (the client's types are printed from them). */
export interface OperationSchemas {
  params?: Json;
  query?: Json;
  body?: Json;
  bodyRequired: boolean;
  /** `data` of the envelope (or the whole answer of a bare route). */
  response?: Json;
  isList: boolean;
}

export const operationSchemasOf = (document: Json): Record<string, OperationSchemas> =>
  Object.fromEntries(callableRoutes(routes).map(([operation, route]) => [operation, schemasOf(document, route)]));

function schemasOf(document: Json, route: RouteDef): OperationSchemas {
  const op = document.paths[route.path][route.method.toLowerCase()];
  /** The parameters of one place as the object schema they came from. */
  const objectOf = (where: 'path' | 'query') => {
    const parameters = (op.parameters as Json[]).filter((p) => p.in === where);
    return {
      type: 'object',
      properties: Object.fromEntries(parameters.map((p) => [p.name, p.schema])),
      required: parameters.filter((p) => p.required).map((p) => p.name),
    };
  };
  const success = Object.entries<Json>(op.responses).find(([status]) => Number(status) < 400)![1];
  const answer = success.content?.['application/json']?.schema;
  return {
    params: route.params ? objectOf('path') : undefined,
    query: route.query ? objectOf('query') : undefined,
    body: op.requestBody?.content['application/json'].schema,
    bodyRequired: op.requestBody?.required ?? false,
    response: route.produces ? { type: 'string' } : route.envelope === false ? answer : answer?.properties.data,
    isList: isList(route),
  };
}
