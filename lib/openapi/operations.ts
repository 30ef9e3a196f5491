import { createHash } from 'node:crypto';
import * as z from '../schemas/zod';
import type {
  ZodOpenApiOperationObject,
  ZodOpenApiOverrideMeta,
  ZodOpenApiParameterObject,
  ZodOpenApiResponsesObject,
} from 'zod-openapi';
import { honoursIfMatch, shapeOf, successStatusOf, takesBearer, takesCursor, type RouteDef } from '../http/route';
import { doc, EXAMPLE_ID, meta, Pagination } from '../schemas/common';
import { errorResponsesOf, header, transportRefs } from './errors';
import { IDEMPOTENCY_KEY_PARAMETER, RATE_LIMIT_HEADERS, trafficOf, type Traffic } from './traffic';

/**
 * One operation of the document from one complete route row: its parameters, body and answers
 * (zod schemas, which zod-openapi renders), its error answers (./errors.ts), its traffic rules
 * (./traffic.ts). Examples are added once the schemas are rendered (./examples.ts).
 */

/** A list's `pagination`: one component. */
const PaginationComponent = meta(Pagination, { id: 'Pagination' });

const SUCCESS_TITLES: Record<number, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No content' };

/** A paginated list: an array answer to a query that takes a cursor. */
export const isList = (route: RouteDef) => route.response instanceof z.core.$ZodArray && takesCursor(route);

/**
 * The Idempotency-Key header with an example of the operation's own: a document that shows one
 * key on every POST leads example-driven tools to replay it with other bodies (422 on requests
 * the document presents as valid).
 */
function idempotencyKeyParameter(operation: string, required: boolean) {
  const hex = createHash('sha256').update(`Idempotency-Key ${operation}`).digest('hex');
  const example = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  const { schema, ...parameter } = IDEMPOTENCY_KEY_PARAMETER;
  return { ...parameter, ...(required ? { required } : {}), schema: { ...schema, examples: [example] } };
}

function parametersOf(operation: string, route: RouteDef, traffic: Traffic): ZodOpenApiParameterObject[] {
  const segments = route.path.split('/');
  const fields = (schema: z.core.$ZodType | undefined, where: 'path' | 'query') =>
    Object.entries(shapeOf(schema)).map(([name, field]) => {
      // A generic `{id}` gets the example id of the collection it names (/v1/clients/{id}: a client's).
      const noun = segments[segments.indexOf(`{${name}}`) - 1]?.replace(/s$/, '');
      const example = where === 'path' && name === 'id' ? EXAMPLE_ID[noun as keyof typeof EXAMPLE_ID] : undefined;
      const override: ZodOpenApiOverrideMeta = ({ jsonSchema }) => {
        jsonSchema.examples = [example];
      };
      // `required` stated either way (zod-openapi sets it when the field is required).
      return meta(field, { param: { in: where, name, required: where === 'path' }, ...(example ? { override } : {}) });
    });
  return [
    ...fields(route.params, 'path'),
    ...fields(route.query, 'query'),
    ...(honoursIfMatch(route) ? [{ $ref: '#/components/parameters/IfMatch' }] : []),
    ...(conditionalGetOf(route) ? [{ $ref: '#/components/parameters/IfNoneMatch' }] : []),
    ...(traffic.idempotent ? [idempotencyKeyParameter(operation, route.idempotent === 'required')] : []),
  ];
}

/** The success body: `{ success, data, pagination? }` around the row's `response`, or it bare. */
function successSchema(route: RouteDef): z.core.$ZodType {
  const data = route.response ?? z.unknown();
  if (route.envelope === false) return data;
  const known = z.globalRegistry.get(data);
  return z.object({
    success: doc(z.literal(true), 'Always true for successes.'),
    data: known?.description || known?.id ? data : doc(data, 'The result.'),
    ...(isList(route) ? { pagination: route.pagination ?? PaginationComponent } : {}),
  });
}

/** A versioned resource's answer carries `ETag: "<version>"`. */
const isSingle = (route: RouteDef) =>
  route.envelope !== false && !isList(route) && 'version' in shapeOf(route.response);

/** GETs answering an ETag (a list page's, a resource's version) take `If-None-Match` (lib/http/conditional-get.ts). */
const conditionalGetOf = (route: RouteDef): 'list' | 'single' | null =>
  route.method !== 'GET' ? null : isList(route) ? 'list' : isSingle(route) ? 'single' : null;

function responsesOf(route: RouteDef, traffic: Traffic): ZodOpenApiResponsesObject {
  const status = successStatusOf(route);
  const single = isSingle(route);
  const conditional = conditionalGetOf(route);
  const etag: Record<string, ReturnType<typeof header>> = conditional === 'list'
    ? { ETag: header('ListETag') }
    : single
      ? { ETag: header('ETag') }
      : {};
  const rateHeaders = traffic.rateLimited
    ? Object.fromEntries(RATE_LIMIT_HEADERS.map((name) => [name, header(name)]))
    : {};
  const content = route.produces
    ? Object.fromEntries(
        Object.entries(route.produces).map(([type, { description, example }]) => [
          type,
          { schema: { type: 'string' as const, description }, example },
        ]),
      )
    : { 'application/json': { schema: successSchema(route) } };
  // Numeric keys: an object lists them in ascending order, success first.
  return {
    [status]: {
      description: SUCCESS_TITLES[status] ?? 'Success',
      headers: { 'X-Request-Id': header('X-Request-Id'), ...etag, ...rateHeaders },
      content,
    },
    ...(conditional
      ? {
          304: {
            description: 'Not modified: `If-None-Match` names the current `ETag`. No body.',
            headers: { 'X-Request-Id': header('X-Request-Id'), ...etag, ...rateHeaders },
          },
        }
      : {}),
    ...errorResponsesOf(route, traffic, rateHeaders),
    ...transportRefs(),
  };
}

const LIMITED_PER = {
  public: 'client IP',
  publishable: "client IP and per key (the key's `rate_limits`)",
  staff: 'credential',
} as const;

/** Who may call it, and how, in a sentence each. */
function notesOf(route: RouteDef, traffic: Traffic): string {
  return [
    route.auth === 'public'
      ? 'No token needed.'
      : route.auth === 'publishable'
        ? 'Called from browsers with a publishable key (`X-Publishable-Key`, role `public`; a bearer token is not taken), from its allowed origins, while the practice takes online bookings.'
        : `Roles: ${route.auth.join(', ')}.`,
    ...(route.allowWaitlisted ? ['Also answers while the practice is waitlisted.'] : []),
    ...(route.queryFromBody ? ['The query parameters may also come as a JSON body (the query string wins).'] : []),
    ...(route.acceptsForm
      ? [
          'Accepts JSON or the OAuth 2.0 form (`application/x-www-form-urlencoded`, RFC 6749 4.4); the client may also authenticate with HTTP Basic.',
        ]
      : []),
    ...(traffic.idempotent ? ['Send an `Idempotency-Key` to make retries safe.'] : []),
    ...(traffic.rateLimited
      ? [
          `Rate limited per ${LIMITED_PER[route.auth === 'public' || route.auth === 'publishable' ? route.auth : 'staff']} (\`RateLimit-*\` headers; 429 with \`Retry-After\`).`,
        ]
      : []),
  ].join(' ');
}

/** The public-booking operations have a tag of their own (API reference, online booking). */
export const ONLINE_BOOKING_TAG = 'Online booking';
export const tagOf = (route: RouteDef) => (route.auth === 'publishable' ? ONLINE_BOOKING_TAG : route.group);

function securityOf(route: RouteDef): Record<string, string[]>[] {
  if (route.auth === 'publishable') return [{ publishableKey: [] }];
  if (route.auth === 'public') return route.basicAuth ? [{}, { clientBasic: [] }] : [];
  return [{ bearerAuth: [] }, { oauth2: [] }];
}

/** The operation object of one route row, for zod-openapi's `createDocument`. */
export function operationOf(operation: string, route: RouteDef): ZodOpenApiOperationObject {
  const traffic = trafficOf(operation, route);
  return {
    operationId: operation,
    summary: route.summary,
    description: notesOf(route, traffic),
    tags: [tagOf(route)],
    security: securityOf(route),
    ...(takesBearer(route) ? { 'x-roles': [...route.auth] } : {}),
    ...(route.allowWaitlisted ? { 'x-allow-waitlisted': true } : {}),
    ...(traffic.rateLimited ? { 'x-rate-limited': true } : {}),
    ...(traffic.idempotent ? { 'x-idempotent': true } : {}),
    ...(route.deprecated ? { deprecated: true } : {}),
    parameters: parametersOf(operation, route, traffic),
    ...(route.body
      ? {
          requestBody: {
            required: !route.body.safeParse(undefined).success,
            content: {
              'application/json': { schema: route.body },
              ...(route.acceptsForm ? { 'application/x-www-form-urlencoded': { schema: route.body } } : {}),
            },
          },
        }
      : {}),
    responses: responsesOf(route, traffic),
  };
}
