import * as z from 'zod';
import { version as packageVersion } from '../../package.json';
import { ROLES } from '../auth/roles';
import { ERROR_STATUS, type ErrorCode } from '../errors';
import { MAX_BODY_BYTES } from '../http/input';
import { callableRoutes, successStatusOf, type RouteDef } from '../http/route';
import { routes } from '../routes';
import { Pagination } from '../schemas/common';
import { HEALTH_SCORE_DESCRIPTION } from './descriptions';
import { CONTRACT_SILENT_CHOICES } from './notes';

/**
 * The OpenAPI 3.1 document, built from the route table and its zod schemas (zod 4's own
 * `z.toJSONSchema`, JSON Schema 2020-12 = OpenAPI 3.1's schema dialect): nothing is written twice.
 * What the route table cannot say (a handler's non-default status, its domain errors, where
 * If-Match is honoured) is in the small maps below; test/unit/openapi.test.ts checks them against
 * the handler sources.
 */

type Json = Record<string, any>;

// ---------------------------------------------------------------------------------------------
// What the route table does not carry


/** POST actions that honour If-Match (PATCH and DELETE do unless listed in IF_MATCH_IGNORED). */
export const IF_MATCH_POST: ReadonlySet<string> = new Set(['cancelAppointment', 'markNoShow']);
/** DELETEs that do not read If-Match (a credential has no version). */
export const IF_MATCH_IGNORED: ReadonlySet<string> = new Set(['revokeCredential']);

/**
 * Business-rule errors of an operation. The generic ones are inferred: validation, auth, roles,
 * waitlist, `*_NOT_FOUND` from path segments and `*_id` fields, VERSION_CONFLICT with If-Match,
 * body size and media type, rate limit, internal error.
 */
export const DOMAIN_ERRORS: Readonly<Record<string, readonly ErrorCode[]>> = {
  createToken: ['INVALID_CLIENT'],
  createAppointment: ['PROVIDER_NOT_CERTIFIED', 'PROVIDER_UNAVAILABLE', 'ROOM_UNAVAILABLE', 'EQUIPMENT_UNAVAILABLE'],
  updateAppointment: ['PROVIDER_NOT_CERTIFIED', 'PROVIDER_UNAVAILABLE', 'ROOM_UNAVAILABLE', 'EQUIPMENT_UNAVAILABLE', 'INVALID_STATUS_TRANSITION'],
  updateAppointmentStatus: ['INVALID_STATUS_TRANSITION'],
  searchAvailability: ['PROVIDER_NOT_CERTIFIED'],
  cancelAppointment: ['INVALID_STATUS_TRANSITION'],
  markNoShow: ['INVALID_STATUS_TRANSITION'],
  recordTreatment: ['INVALID_STATUS_TRANSITION'],
  sendReminder: ['INVALID_STATUS_TRANSITION'],
  createProduct: ['CONFLICT'],
  updateProduct: ['CONFLICT'],
  createStockAdjustment: ['INSUFFICIENT_STOCK'],
  createWebhook: ['CONFLICT'],
};


export const honoursIfMatch = (operation: string, route: RouteDef) =>
  IF_MATCH_POST.has(operation) || ((route.method === 'PATCH' || route.method === 'DELETE') && !IF_MATCH_IGNORED.has(operation));

// ---------------------------------------------------------------------------------------------
// zod → JSON Schema

const schemaRef = (name: string) => `#/components/schemas/${name}`;

/** Deep-maps `$ref`s; the rest is copied as is. */
function rewriteRefs(node: unknown, map: (ref: string) => string): any {
  if (Array.isArray(node)) return node.map((item) => rewriteRefs(item, map));
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, key === '$ref' && typeof value === 'string' ? map(value) : rewriteRefs(value, map)]));
}

/** Visits every object in a JSON tree. */
function visit(node: unknown, fn: (object: Json) => void) {
  if (Array.isArray(node)) node.forEach((item) => visit(item, fn));
  else if (node && typeof node === 'object') {
    fn(node as Json);
    Object.values(node).forEach((value) => visit(value, fn));
  }
}

/**
 * Converts zod schemas, inlined; schemas that zod extracts (a `.meta({ id })`, or a cycle) become
 * `components.schemas` entries so every `$ref` resolves in this document.
 */
class SchemaConverter {
  readonly components: Record<string, Json> = {};

  convert(schema: z.ZodType, io: 'input' | 'output', context: string): Json {
    const json = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      unrepresentable: 'any',
      override: ({ zodSchema, jsonSchema }) => {
        // zod strips unknown keys, so it emits `additionalProperties: false` for every output
        // object; responses may gain fields (not a breaking change), so only strict ones keep it.
        const def = zodSchema._zod.def as { type: string; catchall?: unknown };
        if (io === 'output' && def.type === 'object' && def.catchall === undefined) delete jsonSchema.additionalProperties;
        // `.int()` means a safe integer; its ±(2^53 - 1) bounds say nothing to a reader.
        if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
        if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
      },
    }) as Json;
    delete json.$schema;
    const defs: Record<string, Json> = json.$defs ?? {};
    delete json.$defs;
    const names = new Map<string, string>();
    for (const key of Object.keys(defs)) {
      const base = key.startsWith('__') ? `${context}${key.replace(/^_+/, '_')}` : io === 'input' ? `${key}Input` : key;
      names.set(key, this.freeName(base, defs[key]));
    }
    let root: string | undefined;
    const map = (ref: string) => {
      if (ref === '#') return schemaRef((root ??= this.freeName(context, json)));
      const def = /^#\/\$defs\/(.+)$/.exec(ref)?.[1];
      return def && names.has(def) ? schemaRef(names.get(def)!) : ref;
    };
    for (const [key, def] of Object.entries(defs)) this.components[names.get(key)!] = describe(rewriteRefs(def, map));
    const converted = describe(rewriteRefs(json, map));
    if (root === undefined) return converted;
    this.components[root] = converted;
    return { $ref: schemaRef(root) };
  }

  /** Follows a top-level component `$ref`. */
  resolve(json: Json): Json {
    const name = typeof json.$ref === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(json.$ref)?.[1] : undefined;
    return name ? (this.components[name] ?? json) : json;
  }

  /** `base`, or `base2`, ... when another, different schema already took that name. */
  private freeName(base: string, schema: Json) {
    for (let n = 1; ; n += 1) {
      const name = n === 1 ? base : `${base}${n}`;
      const taken = this.components[name];
      if (!taken || JSON.stringify(taken) === JSON.stringify(schema)) return name;
    }
  }
}

/** Prose for fields whose rules live in code outside the schemas. */
function describe(json: Json): Json {
  visit(json, (node) => {
    const score = node.properties?.health_score;
    if (score && typeof score === 'object' && !score.$ref) score.description = HEALTH_SCORE_DESCRIPTION;
  });
  return json;
}

// ---------------------------------------------------------------------------------------------
// Shared components

const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/** The error envelope of `errorResponse` in lib/http/handler.ts, `code` limited to `codes`. */
const errorEnvelope = (codes: readonly ErrorCode[]): Json => ({
  type: 'object',
  required: ['success', 'error'],
  properties: {
    success: { const: false },
    error: {
      type: 'object',
      required: ['code', 'message', 'request_id'],
      properties: {
        code: { type: 'string', enum: [...codes] },
        message: { type: 'string', description: 'For people; may change. Branch on `code`.' },
        details: { type: 'array', items: { $ref: schemaRef('FieldProblem') }, description: 'The field problems of a `VALIDATION_ERROR`.' },
        request_id: { type: 'string', description: 'Also in the `X-Request-Id` header.' },
      },
    },
  },
});

/** `Error` with `error.code` narrowed to what one response can carry. */
const narrowedError = (codes: readonly ErrorCode[]): Json => ({
  allOf: [{ $ref: schemaRef('Error') }, { type: 'object', properties: { error: { type: 'object', properties: { code: { enum: [...codes] } } } } }],
});

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });

const COMPONENT_HEADERS = {
  'X-Request-Id': { description: 'The request id; the same as `error.request_id`. Quote it when asking for support.', schema: { type: 'string' } },
  ETag: { description: 'The resource `version` as `"<version>"`; send it back in `If-Match`.', schema: { type: 'string' } },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } },
  'WWW-Authenticate': { description: '`Bearer`.', schema: { type: 'string' } },
};

const IF_MATCH_PARAMETER = {
  name: 'If-Match',
  in: 'header',
  required: false,
  description: 'Only change the resource if its `version` is still this one: `"3"`, `W/"3"` or `3` (the `ETag` of your last read). A stale one answers 409 `VERSION_CONFLICT`; without the header the change is unconditional.',
  schema: { type: 'string', examples: ['"3"'] },
};

const ERROR_TITLES: Record<number, string> = {
  400: 'The request is not valid',
  401: 'Not authenticated',
  403: 'Not allowed',
  404: 'Not found (ids of other practices answer the same)',
  405: 'Method not allowed',
  409: 'Conflict with the current state',
  413: `Body larger than ${MAX_BODY_BYTES / 1024} KiB`,
  415: 'Unsupported Content-Type',
  422: 'Well-formed but not acceptable',
  429: 'Rate limited; retry after `Retry-After` seconds',
  500: 'Unexpected server error (never caused by bad input)',
};

const SUCCESS_TITLES: Record<number, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No content' };

// ---------------------------------------------------------------------------------------------
// Per operation

const pathParamNames = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);

/** `appointments` → APPOINTMENT_NOT_FOUND, `equipment` → EQUIPMENT_NOT_FOUND; undefined when the contract has none. */
function notFoundCode(noun: string): ErrorCode | undefined {
  const code = `${noun.replace(/s$/, '').toUpperCase()}_NOT_FOUND`;
  return code in ERROR_STATUS ? (code as ErrorCode) : undefined;
}

interface OperationParts {
  operation: string;
  route: RouteDef;
  params?: Json;
  query?: Json;
  /** As sent in the document (maybe a `$ref`). */
  body?: Json;
  response?: Json;
  /** The same, `$ref` followed, to look inside. */
  bodyShape?: Json;
  responseShape?: Json;
}

function errorCodesOf({ operation, route, query, bodyShape }: OperationParts, ifMatch: boolean, isList: boolean): ErrorCode[] {
  const codes = new Set<ErrorCode>();
  const isPublic = route.auth === 'public';
  if (route.params || route.query || route.body || ifMatch) codes.add('VALIDATION_ERROR');
  if (route.body || route.queryFromBody) codes.add('INVALID_JSON');
  if (!isPublic) {
    codes.add('UNAUTHORIZED');
    if (!ROLES.every((role) => (route.auth as readonly string[]).includes(role))) codes.add('FORBIDDEN');
    if (!route.allowWaitlisted) codes.add('API_ACCESS_NOT_ENABLED');
  }
  // A path parameter names a member of the collection before it: /v1/services/{id}/providers/{provider_id}.
  const segments = route.path.split('/');
  segments.forEach((segment, index) => {
    if (/^\{\w+\}$/.test(segment)) {
      const code = notFoundCode(segments[index - 1] ?? '');
      if (code) codes.add(code);
    }
  });
  // Referenced ids (`client_id`, `provider_ids`) in bodies and in the query of non-list reads.
  const referenced = [...(isPublic ? [] : Object.keys(bodyShape?.properties ?? {})), ...(isList ? [] : Object.keys(query?.properties ?? {}))];
  for (const field of referenced) {
    const noun = /^([a-z]+)_ids?$/.exec(field)?.[1];
    const code = noun && notFoundCode(noun);
    if (code) codes.add(code);
  }
  if (ifMatch) codes.add('VERSION_CONFLICT');
  if (route.body) {
    codes.add('PAYLOAD_TOO_LARGE');
    if (!route.acceptsForm) codes.add('UNSUPPORTED_MEDIA_TYPE');
  }
  for (const code of DOMAIN_ERRORS[operation] ?? []) codes.add(code);
  codes.add('INTERNAL_ERROR');
  return ERROR_CODES.filter((code) => codes.has(code));
}

function parametersOf(parts: OperationParts, ifMatch: boolean): Json[] {
  const { route, params, query } = parts;
  const fromObject = (json: Json | undefined, where: 'path' | 'query') => {
    const required = new Set<string>(json?.required ?? []);
    return Object.entries<Json>(json?.properties ?? {}).map(([name, schema]) => ({
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(schema.description ? { description: schema.description } : {}),
      schema,
    }));
  };
  const path = fromObject(params, 'path');
  // A `{param}` the params schema does not name is still a (string) path parameter.
  for (const name of pathParamNames(route.path)) {
    if (!path.some((p) => p.name === name)) path.push({ name, in: 'path', required: true, schema: { type: 'string' } });
  }
  return [...path, ...fromObject(query, 'query'), ...(ifMatch ? [{ $ref: '#/components/parameters/IfMatch' }] : [])];
}

function responsesOf(parts: OperationParts, ifMatch: boolean): Json {
  const { operation, route, query, response, responseShape } = parts;
  const status = successStatusOf(route);
  const isList = responseShape?.type === 'array' && Boolean(query?.properties?.cursor);
  const enveloped = route.envelope !== false;
  const data = response ?? {};
  const single = enveloped && !isList && Boolean(responseShape?.properties?.version);
  const successSchema = enveloped
    ? {
        type: 'object',
        required: ['success', 'data', ...(isList ? ['pagination'] : [])],
        properties: { success: { const: true }, data, ...(isList ? { pagination: { $ref: schemaRef('Pagination') } } : {}) },
      }
    : data;
  const responses: Json = {
    [status]: {
      description: SUCCESS_TITLES[status] ?? 'Success',
      headers: { 'X-Request-Id': header('X-Request-Id'), ...(single ? { ETag: header('ETag') } : {}) },
      content: { 'application/json': { schema: successSchema } },
    },
  };
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(parts, ifMatch, isList)) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  for (const [errorStatus, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[errorStatus] = {
      description: `${ERROR_TITLES[errorStatus] ?? 'Error'}: ${codes.join(', ')}`,
      headers: {
        'X-Request-Id': header('X-Request-Id'),
        ...(codes.includes('UNAUTHORIZED') ? { 'WWW-Authenticate': header('WWW-Authenticate') } : {}),
      },
      content: { 'application/json': { schema: narrowedError(codes) } },
    };
  }
  return responses;
}

function operationOf(parts: OperationParts) {
  const { operation, route, body } = parts;
  const isPublic = route.auth === 'public';
  const ifMatch = honoursIfMatch(operation, route);
  const notes = [
    route.auth === 'public' ? 'No token needed.' : `Roles: ${route.auth.join(', ')}.`,
    ...(route.allowWaitlisted ? ['Also answers while the practice is waitlisted.'] : []),
    ...(route.queryFromBody ? ['The query parameters may also come as a JSON body (the query string wins).'] : []),
    ...(route.acceptsForm ? ['Accepts JSON or the OAuth 2.0 form (`application/x-www-form-urlencoded`, RFC 6749 4.4); the client may also authenticate with HTTP Basic.'] : []),
  ];
  const isTokenEndpoint = operation === TOKEN_OPERATION;
  const bodyRequired = route.body ? !route.body.safeParse(undefined).success : false;
  return {
    operationId: operation,
    summary: route.summary,
    description: notes.join(' '),
    tags: [route.group],
    security: isPublic ? (isTokenEndpoint ? [{}, { clientBasic: [] }] : []) : [{ bearerAuth: [] }, { oauth2: [] }],
    ...(route.auth === 'public' ? {} : { 'x-roles': [...route.auth] }),
    ...(route.allowWaitlisted ? { 'x-allow-waitlisted': true } : {}),
    parameters: parametersOf(parts, ifMatch),
    ...(body
      ? {
          requestBody: {
            required: bodyRequired,
            content: {
              'application/json': { schema: body },
              ...(route.acceptsForm ? { 'application/x-www-form-urlencoded': { schema: body } } : {}),
            },
          },
        }
      : {}),
    responses: responsesOf(parts, ifMatch),
  };
}

// ---------------------------------------------------------------------------------------------
// The document

const TOKEN_OPERATION = 'createToken' satisfies keyof typeof routes;

function infoDescription(): string {
  const errorRows = ERROR_CODES.map((code) => `| ${ERROR_STATUS[code]} | \`${code}\` |`).join('\n');
  return `The practice-management API for med-spas: clients, appointments, the service catalog, retail products and inventory, payments and consents. Two active appointments never overlap on one provider, room or piece of equipment, whatever the concurrency.

## Conventions

- **Base path** \`/v1\`. JSON in and out (\`Content-Type: application/json\`), snake_case field names.
- **Ids** are server-assigned UUIDs. An unknown or malformed id is a 404 of that resource, never a 500. A token of one practice never sees another practice's records: their ids answer 404 as if absent.
- **Success**: \`{ "success": true, "data": ... }\`; lists add \`pagination\`. Create answers 201. \`DELETE\` answers 200 \`{ "success": true, "data": { "id", "deleted": true } }\`. The token and JWKS endpoints answer their RFC shapes, without the envelope.
- **Errors**: \`{ "success": false, "error": { "code", "message", "details"?, "request_id" } }\`. Branch on \`code\`; \`details\` lists field problems of a \`VALIDATION_ERROR\` (\`[{ "path": "scheduled_at", "message": "..." }]\`). Every operation lists the codes it can answer.
- **X-Request-Id** is on every response.
- **Pagination**: \`?limit=\` (1..100, default 50) and \`?cursor=\` (opaque, from \`pagination.next_cursor\`); \`pagination = { total, next_cursor }\`, \`next_cursor\` is \`null\` on the last page.
- **Date-times** are ISO 8601 with an offset on input (\`2026-11-23T15:00:00Z\`, \`...-05:00\`); one without an offset is a \`VALIDATION_ERROR\`. Output is always UTC (\`2026-11-23T15:00:00.000Z\`).
- **Plain dates** (\`YYYY-MM-DD\`) and working hours (\`HH:MM\`) are in the practice's IANA time zone (\`practice.time_zone\`).
- **Money** is integer minor units (\`*_cents\`) in the practice's \`currency\` (ISO 4217).
- **Versioning**: resources carry \`version\` (+1 per change); single-resource responses carry \`ETag: "<version>"\`. Operations that take \`If-Match\` (\`"3"\`, \`W/"3"\` or \`3\`) answer 409 \`VERSION_CONFLICT\` when it is stale.
- **Limits**: bodies over ${MAX_BODY_BYTES / 1024} KiB are 413 \`PAYLOAD_TOO_LARGE\`; malformed JSON is 400 \`INVALID_JSON\`.
- **Authentication**: exchange a credential at \`POST /v1/auth/token\` (JSON \`{ client_id, client_secret }\`, or the OAuth 2.0 client-credentials form, or HTTP Basic) for a JWT valid for 1 hour, and send it as \`Authorization: Bearer <token>\`. Public keys: \`GET /.well-known/jwks.json\`.
- **Roles**: ${ROLES.map((role) => `\`${role}\``).join(', ')}. Each operation lists the roles allowed (\`x-roles\`); any other is 403 \`FORBIDDEN\`. A practice still on the early-access waitlist gets 403 \`API_ACCESS_NOT_ENABLED\` except where an operation says otherwise (\`x-allow-waitlisted\`).

| HTTP | code |
|---|---|
${errorRows}

## Choices where the contract is silent

${CONTRACT_SILENT_CHOICES}
`;
}

/** Builds the whole document from `routes`; pure, so callers may cache it. */
export function buildOpenApiDocument(): Json {
  const converter = new SchemaConverter();
  const paths: Record<string, Json> = {};
  const tags: string[] = [];
  for (const [operation, route] of callableRoutes(routes)) {
    const convert = (schema: z.ZodType | undefined, io: 'input' | 'output', where: string) =>
      schema ? converter.convert(schema, io, `${operation}_${where}`) : undefined;
    const shape = (json: Json | undefined) => json && converter.resolve(json);
    const body = convert(route.body, 'input', 'body');
    const response = convert(route.response, 'output', 'response');
    const parts: OperationParts = {
      operation,
      route,
      params: shape(convert(route.params, 'input', 'params')),
      query: shape(convert(route.query, 'input', 'query')),
      body,
      response,
      bodyShape: shape(body),
      responseShape: shape(response),
    };
    paths[route.path] ??= {};
    paths[route.path][route.method.toLowerCase()] = operationOf(parts);
    if (!tags.includes(route.group)) tags.push(route.group);
  }
  const pagination = converter.convert(Pagination, 'output', 'Pagination');
  return {
    openapi: '3.1.0',
    info: {
      title: 'medspa-api',
      version: packageVersion,
      summary: 'Practice-management API for med-spas',
      description: infoDescription(),
    },
    servers: [
      { url: '/', description: 'The host serving this document (paths include the /v1 base)' },
      { url: 'http://127.0.0.1:3000', description: 'Local server (npm start)' },
    ],
    tags: tags.map((name) => ({ name })),
    paths,
    components: {
      schemas: {
        ...converter.components,
        Pagination: pagination,
        ErrorCode: { type: 'string', enum: ERROR_CODES },
        FieldProblem: { type: 'object', required: ['path', 'message'], properties: { path: { type: 'string' }, message: { type: 'string' } } },
        Error: { ...errorEnvelope(ERROR_CODES), description: 'Every error answer; each operation narrows `error.code` to the codes it can answer.' },
      },
      parameters: { IfMatch: IF_MATCH_PARAMETER },
      headers: COMPONENT_HEADERS,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An access token from `POST /v1/auth/token`.' },
        oauth2: {
          type: 'oauth2',
          description: 'The same token, obtained with the OAuth 2.0 client-credentials grant.',
          flows: { clientCredentials: { tokenUrl: routes[TOKEN_OPERATION].path, scopes: {} } },
        },
        clientBasic: { type: 'http', scheme: 'basic', description: 'Token endpoint only: `client_id:client_secret` (RFC 6749 2.3.1).' },
      },
    },
  };
}
