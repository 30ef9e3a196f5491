import { createHash } from 'node:crypto';
import * as z from 'zod';
import { version as packageVersion } from '../../package.json';
import { ROLES } from '../auth/roles';
import { DOCS_ASSET_NAMES, DOCS_ASSETS } from '../docs/page';
import { UNAVAILABLE_REASONS } from '../domain/availability';
import { AppError, ERROR_STATUS, type ErrorCode } from '../errors';
import { MAX_BODY_BYTES } from '../http/input';
import { callableRoutes, successStatusOf, type RouteDef } from '../http/route';
import { routes } from '../routes';
import { EXAMPLE_ID, Pagination } from '../schemas/common';
import { EVENT_ENVELOPES, EVENT_SUMMARIES } from '../schemas/events';
import { HEALTH_SCORE_DESCRIPTION } from './descriptions';
import { exampleOf, type ExampleContext } from './examples';
import { CONTRACT_SILENT_CHOICES } from './notes';
import {
  RATE_LIMIT_HEADERS,
  IDEMPOTENCY_KEY_PARAMETER,
  REQUEST_HEADER_PARAMETERS,
  RESPONSE_HEADERS,
  TRAFFIC_ERROR_MESSAGES,
  TRAFFIC_ERROR_STATUS,
  trafficOf,
  type Traffic,
} from './traffic';

/**
 * The OpenAPI 3.1 document, built from the route table and its zod schemas (zod 4's own
 * `z.toJSONSchema`, JSON Schema 2020-12 = OpenAPI 3.1's schema dialect): nothing is written twice.
 * What the route table cannot say (a handler's non-default status, its domain errors, where
 * If-Match is honoured, non-JSON answers) is in the small maps below; test/unit/openapi.test.ts
 * checks them against the handler sources. Examples come from the schemas' own `examples`
 * metadata (./examples.ts); rate limits and idempotency keys from ./traffic.ts's hook.
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
export const DOMAIN_ERRORS: Readonly<Record<string, readonly DocErrorCode[]>> = {
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
  revokeCredential: ['CONFLICT'],
  deleteProvider: ['CONFLICT'],
  getDocsAsset: ['NOT_FOUND'],
};

/** Answers that are not JSON: the content types of each (the JSON schema of these is a string). */
export const RAW_RESPONSES: Readonly<Record<string, Readonly<Record<string, Json>>>> = {
  getDocs: { 'text/html': { schema: { type: 'string', description: 'The reference page.' }, example: '<!doctype html>...' } },
  getDocsAsset: Object.fromEntries(
    [...new Set(Object.values(DOCS_ASSETS).map((type) => type.split(';')[0]))].map((type) => [
      type,
      { schema: { type: 'string', description: `One of ${DOCS_ASSET_NAMES.join(', ')}.` }, example: type === 'text/css' ? '.swagger-ui{...}' : '/* Swagger UI */' },
    ]),
  ),
};

/** Every error code the document names: lib/errors.ts's, and the traffic codes of ./traffic.ts. */
export const DOC_ERROR_STATUS = { ...TRAFFIC_ERROR_STATUS, ...ERROR_STATUS } as const;
export type DocErrorCode = keyof typeof DOC_ERROR_STATUS;


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
  /** What each component name stands for, to tell a second conversion of it from another schema. */
  private readonly signatures = new Map<string, string>();

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
    const baseOf = (key: string) => (key.startsWith('__') ? `${context}${key.replace(/^_+/, '_')}` : io === 'input' ? `${key}Input` : key);
    // Compared by what they will be once their refs point at components, named by base name.
    const signature = (def: Json) =>
      JSON.stringify(describe(rewriteRefs(def, (ref) => {
        const key = /^#\/\$defs\/(.+)$/.exec(ref)?.[1];
        return key ? schemaRef(baseOf(key)) : ref;
      })));
    for (const key of Object.keys(defs)) names.set(key, this.freeName(baseOf(key), signature(defs[key])));
    let root: string | undefined;
    const map = (ref: string) => {
      if (ref === '#') return schemaRef((root ??= this.freeName(context, JSON.stringify(json))));
      const def = /^#\/\$defs\/(.+)$/.exec(ref)?.[1];
      return def && names.has(def) ? schemaRef(names.get(def)!) : ref;
    };
    for (const [key, def] of Object.entries(defs)) {
      const name = names.get(key)!;
      this.components[name] = describe(rewriteRefs(def, map));
      this.signatures.set(name, signature(def));
    }
    const converted = describe(rewriteRefs(json, map));
    if (root === undefined) return converted;
    this.components[root] = converted;
    this.signatures.set(root, JSON.stringify(converted));
    return { $ref: schemaRef(root) };
  }

  /** Follows a top-level component `$ref`. */
  resolve(json: Json): Json {
    const name = typeof json.$ref === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(json.$ref)?.[1] : undefined;
    return name ? (this.components[name] ?? json) : json;
  }

  /** `base`, or `base2`, ... when another, different schema already took that name. */
  private freeName(base: string, signature: string) {
    for (let n = 1; ; n += 1) {
      const name = n === 1 ? base : `${base}${n}`;
      const taken = this.signatures.get(name);
      if (taken === undefined || taken === signature) return name;
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

const ERROR_CODES = (Object.keys(DOC_ERROR_STATUS) as DocErrorCode[]).sort(
  (a, b) => DOC_ERROR_STATUS[a] - DOC_ERROR_STATUS[b] || a.localeCompare(b),
);

const EXAMPLE_REQUEST_ID = '4b7c1f0e-2d3a-4e5f-8a9b-0c1d2e3f4a5b';

const messageOf = (code: DocErrorCode) =>
  code in TRAFFIC_ERROR_MESSAGES && !(code in ERROR_STATUS)
    ? TRAFFIC_ERROR_MESSAGES[code as keyof typeof TRAFFIC_ERROR_MESSAGES]
    : new AppError(code as ErrorCode).message;

/** An error answer as the server writes it (lib/http/handler.ts `errorResponse`). */
export const errorExample = (code: DocErrorCode) => ({
  success: false,
  error: {
    code,
    message: messageOf(code),
    ...(code === 'VALIDATION_ERROR' ? { details: [{ path: 'scheduled_at', message: 'Invalid ISO datetime' }] } : {}),
    request_id: EXAMPLE_REQUEST_ID,
  },
});

/** The error envelope, `code` limited to `codes`. */
const errorEnvelope = (codes: readonly DocErrorCode[]): Json => ({
  type: 'object',
  required: ['success', 'error'],
  properties: {
    success: { const: false, description: 'Always false for errors.' },
    error: {
      type: 'object',
      description: 'What went wrong.',
      required: ['code', 'message', 'request_id'],
      properties: {
        code: { type: 'string', enum: [...codes], description: 'Branch on this.' },
        message: { type: 'string', description: 'For people; may change. Branch on `code`.' },
        details: { type: 'array', items: { $ref: schemaRef('FieldProblem') }, description: 'The field problems of a `VALIDATION_ERROR` (and the reasons of a `PROVIDER_UNAVAILABLE`).' },
        request_id: { type: 'string', description: 'Also in the `X-Request-Id` header.' },
      },
    },
  },
});

/** The envelope of one response: `error.code` narrowed to the codes it can carry. */
const narrowedError = (codes: readonly DocErrorCode[]): Json => ({
  ...errorEnvelope(codes),
  description: `An error: ${codes.join(', ')}.`,
});

const header = (name: keyof typeof RESPONSE_HEADERS) => ({ $ref: `#/components/headers/${name}` });

const ERROR_TITLES: Record<number, string> = {
  400: 'The request is not valid',
  401: 'Not authenticated',
  403: 'Not allowed',
  404: 'Not found (ids of other practices answer the same)',
  409: 'Conflict with the current state',
  413: `Body larger than ${MAX_BODY_BYTES / 1024} KiB`,
  414: 'Request target too long',
  415: 'Unsupported Content-Type',
  422: 'Well-formed but not acceptable',
  429: 'Rate limited; retry after `Retry-After` seconds',
  431: 'Request headers too large',
  500: 'Unexpected server error (never caused by bad input)',
};

const SUCCESS_TITLES: Record<number, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No content' };

/**
 * Refusals of the transport, before any route (README "Transport refusals"): every operation can
 * get them, so each refers to these instead of repeating them.
 */
const TRANSPORT_RESPONSES: Record<string, { status: number; code: DocErrorCode }> = {
  UriTooLong: { status: 414, code: 'URI_TOO_LONG' },
  HeadersTooLarge: { status: 431, code: 'HEADERS_TOO_LARGE' },
};

const TAG_DESCRIPTIONS: Record<string, string> = {
  auth: 'Token exchange, signing keys, API credentials and the audit log.',
  practice: 'The practice the credential belongs to, and its settings.',
  providers: 'People who perform services: working hours and time off.',
  rooms: 'Treatment rooms, booked with appointments.',
  equipment: 'Equipment, booked with appointments.',
  services: 'The service catalog and which providers are certified for each service.',
  clients: 'Clients, their history and signed consent forms.',
  appointments: 'Booking, status changes, availability, slots and the availability search.',
  products: 'Retail products, stock and the stock ledger.',
  payments: 'Payments received from clients.',
  webhooks: 'Webhook subscriptions, their delivery log, tests and retries. The event payloads are in this document\'s `webhooks` section.',
  reports: 'Read-only reports over practice-local date ranges.',
  system: 'Health, this document and its rendered reference.',
  events: 'What webhook subscribers receive: one POST per event, signed the Standard Webhooks way.',
};

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
  traffic: Traffic;
  params?: Json;
  query?: Json;
  /** As sent in the document (maybe a `$ref`). */
  body?: Json;
  response?: Json;
  /** The same, `$ref` followed, to look inside. */
  bodyShape?: Json;
  responseShape?: Json;
}

function errorCodesOf({ operation, route, traffic, query, bodyShape }: OperationParts, ifMatch: boolean, isList: boolean): DocErrorCode[] {
  const codes = new Set<DocErrorCode>();
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
  if (traffic.idempotent) {
    codes.add('IDEMPOTENCY_KEY_REUSED');
    codes.add('IDEMPOTENCY_KEY_IN_USE');
  }
  if (traffic.rateLimited) codes.add('RATE_LIMITED');
  for (const code of DOMAIN_ERRORS[operation] ?? []) codes.add(code);
  if (!RAW_RESPONSES[operation] || route.params) codes.add('INTERNAL_ERROR');
  return ERROR_CODES.filter((code) => codes.has(code));
}

function parametersOf(parts: OperationParts, ifMatch: boolean): Json[] {
  const { route, params, query, traffic } = parts;
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
  const path = fromObject(params, 'path').map((parameter) => {
    // A generic `{id}` gets the example id of the collection it names (/v1/clients/{id}: a client's).
    const segments = route.path.split('/');
    const noun = segments[segments.indexOf(`{${parameter.name}}`) - 1]?.replace(/s$/, '');
    const example = noun && parameter.name === 'id' ? EXAMPLE_ID[noun as keyof typeof EXAMPLE_ID] : undefined;
    return example ? { ...parameter, schema: { ...parameter.schema, examples: [example] } } : parameter;
  });
  // A `{param}` the params schema does not name is still a (string) path parameter.
  for (const name of pathParamNames(route.path)) {
    if (!path.some((p) => p.name === name)) path.push({ name, in: 'path', required: true, description: `The ${name}.`, schema: { type: 'string' } });
  }
  return [
    ...path,
    ...fromObject(query, 'query'),
    ...(ifMatch ? [{ $ref: '#/components/parameters/IfMatch' }] : []),
    ...(traffic.idempotent ? [idempotencyKeyParameter(parts.operation)] : []),
  ];
}

/**
 * The Idempotency-Key header with an example of the operation's own: a document that shows one
 * key on every POST leads example-driven tools to replay it with other bodies (422 on requests
 * the document presents as valid).
 */
function idempotencyKeyParameter(operation: string): Json {
  const hex = createHash('sha256').update(`Idempotency-Key ${operation}`).digest('hex');
  const example = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  const { schema, ...parameter } = IDEMPOTENCY_KEY_PARAMETER;
  return { ...parameter, schema: { ...schema, examples: [example] } };
}

function responsesOf(parts: OperationParts, ifMatch: boolean, examples: ExampleContext): Json {
  const { operation, route, query, response, responseShape, traffic } = parts;
  const status = successStatusOf(route);
  const isList = responseShape?.type === 'array' && Boolean(query?.properties?.cursor);
  const enveloped = route.envelope !== false;
  const data = response ?? {};
  const single = enveloped && !isList && Boolean(responseShape?.properties?.version);
  const rateHeaders = traffic.rateLimited ? Object.fromEntries(RATE_LIMIT_HEADERS.map((name) => [name, header(name)])) : {};
  const successSchema = enveloped
    ? {
        type: 'object',
        required: ['success', 'data', ...(isList ? ['pagination'] : [])],
        properties: {
          success: { const: true, description: 'Always true for successes.' },
          data: { ...data, ...(data.description || data.$ref ? {} : { description: 'The result.' }) },
          ...(isList ? { pagination: { $ref: schemaRef('Pagination') } } : {}),
        },
      }
    : data;
  const raw = RAW_RESPONSES[operation];
  const dataExample = raw ? undefined : exampleOf(data, examples, `${operation}.response`);
  const successExample = enveloped ? { success: true, data: dataExample, ...(isList ? { pagination: { total: 1, next_cursor: null } } : {}) } : dataExample;
  const responses: Json = {
    [status]: {
      description: SUCCESS_TITLES[status] ?? 'Success',
      headers: { 'X-Request-Id': header('X-Request-Id'), ...(single ? { ETag: header('ETag') } : {}), ...rateHeaders },
      content: raw ?? { 'application/json': { schema: successSchema, example: successExample } },
    },
  };
  const byStatus = new Map<number, DocErrorCode[]>();
  for (const code of errorCodesOf(parts, ifMatch, isList)) byStatus.set(DOC_ERROR_STATUS[code], [...(byStatus.get(DOC_ERROR_STATUS[code]) ?? []), code]);
  for (const [errorStatus, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[errorStatus] = {
      description: `${ERROR_TITLES[errorStatus] ?? 'Error'}: ${codes.join(', ')}`,
      headers: {
        'X-Request-Id': header('X-Request-Id'),
        ...rateHeaders,
        ...(codes.includes('RATE_LIMITED') ? { 'Retry-After': header('Retry-After') } : {}),
        ...(codes.includes('UNAUTHORIZED') ? { 'WWW-Authenticate': header('WWW-Authenticate') } : {}),
      },
      content: {
        'application/json': {
          schema: narrowedError(codes),
          examples: Object.fromEntries(codes.map((code) => [code, { $ref: `#/components/examples/${code}` }])),
        },
      },
    };
  }
  for (const [name, { status: transportStatus }] of Object.entries(TRANSPORT_RESPONSES)) responses[transportStatus] = { $ref: `#/components/responses/${name}` };
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)));
}

function operationOf(parts: OperationParts, examples: ExampleContext) {
  const { operation, route, body, traffic } = parts;
  const isPublic = route.auth === 'public';
  const ifMatch = honoursIfMatch(operation, route);
  const notes = [
    route.auth === 'public' ? 'No token needed.' : `Roles: ${route.auth.join(', ')}.`,
    ...(route.allowWaitlisted ? ['Also answers while the practice is waitlisted.'] : []),
    ...(route.queryFromBody ? ['The query parameters may also come as a JSON body (the query string wins).'] : []),
    ...(route.acceptsForm ? ['Accepts JSON or the OAuth 2.0 form (`application/x-www-form-urlencoded`, RFC 6749 4.4); the client may also authenticate with HTTP Basic.'] : []),
    ...(traffic.idempotent ? ['Send an `Idempotency-Key` to make retries safe.'] : []),
    ...(traffic.rateLimited ? ["Rate limited per credential (`RateLimit-*` headers; 429 with `Retry-After`)."] : []),
  ];
  const isTokenEndpoint = operation === TOKEN_OPERATION;
  const bodyRequired = route.body ? !route.body.safeParse(undefined).success : false;
  const bodyExample = body ? exampleOf(body, examples, `${operation}.body`) : undefined;
  return {
    operationId: operation,
    summary: route.summary,
    description: notes.join(' '),
    tags: [route.group],
    security: isPublic ? (isTokenEndpoint ? [{}, { clientBasic: [] }] : []) : [{ bearerAuth: [] }, { oauth2: [] }],
    ...(route.auth === 'public' ? {} : { 'x-roles': [...route.auth] }),
    ...(route.allowWaitlisted ? { 'x-allow-waitlisted': true } : {}),
    ...(traffic.rateLimited ? { 'x-rate-limited': true } : {}),
    ...(traffic.idempotent ? { 'x-idempotent': true } : {}),
    ...(operation === 'getOpenApiUnversioned' ? { deprecated: true } : {}),
    parameters: parametersOf(parts, ifMatch),
    ...(body
      ? {
          requestBody: {
            required: bodyRequired,
            content: {
              'application/json': { schema: body, example: bodyExample },
              ...(route.acceptsForm ? { 'application/x-www-form-urlencoded': { schema: body, example: bodyExample } } : {}),
            },
          },
        }
      : {}),
    responses: responsesOf(parts, ifMatch, examples),
  };
}

// ---------------------------------------------------------------------------------------------
// Events: the `webhooks` section

const eventComponentName = (type: string) =>
  `${type
    .split(/[._]/)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('')}Event`;

const eventOperationId = (type: string) => `on${eventComponentName(type).replace(/Event$/, '')}`;

const WEBHOOK_HEADERS: Json[] = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The event id (also `id` in the body): the same on every attempt of one event. Dedupe on it.',
    schema: { type: 'string', examples: ['evt_0f8e2a7c4b1d4e6f9a3b5c7d9e1f2a4b'] },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Unix seconds of this attempt; refuse ones far from your clock (the libraries allow 5 minutes).',
    schema: { type: 'string', pattern: '^[0-9]+$', examples: ['1795442709'] },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      '`v1,<base64 HMAC-SHA256(secret, "{webhook-id}.{webhook-timestamp}.{body}")>`; for 24 h after a secret rotation two, space-separated. Verify with any Standard Webhooks library (`standardwebhooks` on npm) and the subscription\'s `whsec_` secret.',
    schema: { type: 'string', examples: ['v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4='] },
  },
];

function webhooksOf(converter: SchemaConverter, examples: ExampleContext): { webhooks: Json; schemas: Record<string, Json> } {
  const webhooks: Json = {};
  const schemas: Record<string, Json> = {};
  for (const [type, envelope] of Object.entries(EVENT_ENVELOPES)) {
    const name = eventComponentName(type);
    schemas[name] = converter.convert(envelope, 'output', name);
    const ref = { $ref: schemaRef(name) };
    webhooks[type] = {
      post: {
        operationId: eventOperationId(type),
        summary: EVENT_SUMMARIES[type as keyof typeof EVENT_SUMMARIES],
        description: `The body is the \`${type}\` event. Answer any 2xx within 10 s; anything else is a failed attempt, retried with backoff (about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, then given up). Delivery is at least once: dedupe on \`webhook-id\`.`,
        tags: ['events'],
        security: [],
        parameters: WEBHOOK_HEADERS,
        requestBody: { required: true, content: { 'application/json': { schema: ref, example: exampleOf(schemas[name], examples, `webhooks.${type}`) } } },
        responses: {
          '200': { description: 'Received (any 2xx).' },
          '400': { description: 'Refused (any non-2xx, or no answer within 10 s): a failed attempt, retried later.' },
        },
      },
    };
  }
  return { webhooks, schemas };
}

// ---------------------------------------------------------------------------------------------
// The document

const TOKEN_OPERATION = 'createToken' satisfies keyof typeof routes;

/** The local server's address when the document is built without a request (`npm run openapi`). */
export const DEFAULT_SERVER_URL = `http://127.0.0.1:${process.env.PORT ?? 3000}`;

function infoDescription(): string {
  const errorRows = ERROR_CODES.map((code) => `| ${DOC_ERROR_STATUS[code]} | \`${code}\` |`).join('\n');
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
- **Idempotency**: \`POST\`s take an \`Idempotency-Key\` header: the same key with the same body within 24 h replays the first answer; with a different body it is 422 \`IDEMPOTENCY_KEY_REUSED\` (409 \`IDEMPOTENCY_KEY_IN_USE\` while the first is still running). Retry a failed POST with the same key.
- **Rate limits**: per credential. Every answer carries \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\` (seconds); over the limit it is 429 \`RATE_LIMITED\` with \`Retry-After\` (seconds).
- **Limits**: bodies over ${MAX_BODY_BYTES / 1024} KiB are 413 \`PAYLOAD_TOO_LARGE\`; malformed JSON is 400 \`INVALID_JSON\`.
- **Authentication**: exchange a credential at \`POST /v1/auth/token\` (JSON \`{ client_id, client_secret }\`, or the OAuth 2.0 client-credentials form, or HTTP Basic) for a JWT valid for 1 hour, and send it as \`Authorization: Bearer <token>\`. Public keys: \`GET /.well-known/jwks.json\`.
- **Roles**: ${ROLES.map((role) => `\`${role}\``).join(', ')}. Each operation lists the roles allowed (in its description and \`x-roles\`); any other is 403 \`FORBIDDEN\`. A practice still on the early-access waitlist gets 403 \`API_ACCESS_NOT_ENABLED\` except where an operation says otherwise (\`x-allow-waitlisted\`).
- **Events**: subscribe with \`POST /v1/webhooks\`; each event is POSTed to your URL as described in this document's \`webhooks\` section, signed the Standard Webhooks way.

| HTTP | code |
|---|---|
${errorRows}

## Choices where the contract is silent

${CONTRACT_SILENT_CHOICES}
`;
}

const tokenUrl = (serverUrl: string) => `${serverUrl}${routes[TOKEN_OPERATION].path}`;

/**
 * The document for one server: `servers` and the OAuth token URL name it. The rest does not
 * depend on it, so a cached document is re-pointed per request with this.
 */
export function withServer(document: Json, serverUrl: string, description = 'The server that answered this request'): Json {
  return {
    ...document,
    servers: [{ url: serverUrl, description }],
    components: {
      ...document.components,
      securitySchemes: {
        ...document.components.securitySchemes,
        oauth2: {
          ...document.components.securitySchemes.oauth2,
          flows: { clientCredentials: { tokenUrl: tokenUrl(serverUrl), scopes: {} } },
        },
      },
    },
  };
}

/**
 * The base URL a request came to, from its own `Host` (and `X-Forwarded-Proto`, which API
 * Gateway sets); null when the host is not a plain host[:port], so nothing odd is echoed back.
 */
export function serverUrlOf(headers: Record<string, string | undefined>): string | null {
  const host = headers.host?.trim().toLowerCase();
  if (!host || !/^([a-z0-9.-]+|\[[0-9a-f:.]+\])(:[0-9]{1,5})?$/.test(host)) return null;
  const forwarded = headers['x-forwarded-proto']?.split(',')[0]?.trim().toLowerCase();
  const protocol = forwarded === 'https' || forwarded === 'http' ? forwarded : /^(127\.|localhost|\[::1\])/.test(host) ? 'http' : 'https';
  return `${protocol}://${host}`;
}

/** The JSON Schemas of each operation's input and output, as the document has them (the typed client's types come from these). */
export interface OperationSchemas {
  params?: Json;
  query?: Json;
  body?: Json;
  bodyRequired: boolean;
  /** `data` of the envelope (or the whole answer of a bare route). */
  response?: Json;
  isList: boolean;
}

/** Builds the whole document from `routes`; pure, so callers may cache it. */
export function buildOpenApiDocument(options: { serverUrl?: string } = {}): Json {
  return buildAll(options).document;
}

/** The document plus what the tests and generators look at beside it. */
export function buildAll(options: { serverUrl?: string } = {}) {
  const converter = new SchemaConverter();
  const missingExamples: string[] = [];
  const examples: ExampleContext = {
    missing: missingExamples,
    resolve: (ref) => {
      const name = /^#\/components\/schemas\/(.+)$/.exec(ref)?.[1];
      if (name === 'Pagination') return converter.components.Pagination ?? paginationSchema;
      return name ? converter.components[name] : undefined;
    },
  };
  const paginationSchema = converter.convert(Pagination, 'output', 'Pagination');
  const paths: Record<string, Json> = {};
  const tags: string[] = [];
  const operations: Record<string, OperationSchemas> = {};
  for (const [operation, route] of callableRoutes(routes)) {
    const convert = (schema: z.ZodType | undefined, io: 'input' | 'output', where: string) =>
      schema ? converter.convert(schema, io, `${operation}_${where}`) : undefined;
    const shape = (json: Json | undefined) => json && converter.resolve(json);
    const body = convert(route.body, 'input', 'body');
    const response = convert(route.response, 'output', 'response');
    const parts: OperationParts = {
      operation,
      route,
      traffic: trafficOf(operation, route),
      params: shape(convert(route.params, 'input', 'params')),
      query: shape(convert(route.query, 'input', 'query')),
      body,
      response,
      bodyShape: shape(body),
      responseShape: shape(response),
    };
    paths[route.path] ??= {};
    paths[route.path][route.method.toLowerCase()] = operationOf(parts, examples);
    if (!tags.includes(route.group)) tags.push(route.group);
    operations[operation] = {
      params: parts.params,
      query: parts.query,
      body,
      bodyRequired: route.body ? !route.body.safeParse(undefined).success : false,
      response: RAW_RESPONSES[operation] ? { type: 'string' } : response,
      isList: parts.responseShape?.type === 'array' && Boolean(parts.query?.properties?.cursor),
    };
  }
  const events = webhooksOf(converter, examples);
  const serverUrl = options.serverUrl ?? DEFAULT_SERVER_URL;
  const transportResponses = Object.fromEntries(
    Object.entries(TRANSPORT_RESPONSES).map(([name, { status, code }]) => [
      name,
      {
        description: `${ERROR_TITLES[status]}: ${code} (the local server; on AWS the gateway answers these itself, with its own body)`,
        headers: { 'X-Request-Id': header('X-Request-Id') },
        content: { 'application/json': { schema: narrowedError([code]), examples: { [code]: { $ref: `#/components/examples/${code}` } } } },
      },
    ]),
  );
  const document = withServer(
    {
      openapi: '3.1.0',
      info: {
        title: 'medspa-api',
        version: packageVersion,
        summary: 'Practice-management API for med-spas',
        description: infoDescription(),
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [],
      tags: [...tags, 'events'].map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name })),
      paths,
      webhooks: events.webhooks,
      components: {
        schemas: {
          ...converter.components,
          ...events.schemas,
          Pagination: paginationSchema,
          FieldProblem: {
            type: 'object',
            description: 'One problem with the request.',
            required: ['path', 'message'],
            properties: {
              path: { type: 'string', description: 'The field, parameter or header (`provider_id`, `items.0.name`, `If-Match`).' },
              message: { type: 'string', description: 'What is wrong with it.' },
              reason: { type: 'string', enum: [...UNAVAILABLE_REASONS], description: 'Why a provider, room or equipment is unavailable (`*_UNAVAILABLE` only).' },
              appointment_id: { type: 'string', description: 'For an overlap: the appointment in the way.' },
            },
          },
        },
        responses: transportResponses,
        examples: Object.fromEntries(ERROR_CODES.map((code) => [code, { summary: messageOf(code), value: errorExample(code) }])),
        parameters: REQUEST_HEADER_PARAMETERS,
        headers: RESPONSE_HEADERS,
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An access token from `POST /v1/auth/token`.' },
          oauth2: {
            type: 'oauth2',
            description: 'The same token, obtained with the OAuth 2.0 client-credentials grant.',
            flows: { clientCredentials: { tokenUrl: tokenUrl(serverUrl), scopes: {} } },
          },
          clientBasic: { type: 'http', scheme: 'basic', description: 'Token endpoint only: `client_id:client_secret` (RFC 6749 2.3.1).' },
        },
      },
    },
    serverUrl,
    options.serverUrl ? 'The API' : 'The local server (npm start)',
  );
  return { document, operations, missingExamples };
}
