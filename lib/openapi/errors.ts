import { ROLES } from '../auth/roles';
import { UNAVAILABLE_REASONS } from '../domain/availability';
import type { oas31 } from 'zod-openapi';
import { AppError, ERROR_STATUS } from '../errors';
import { MAX_BODY_BYTES } from '../http/input';
import { honoursIfMatch, takesBearer, type RouteDef } from '../http/route';
import { TRAFFIC_ERROR_STATUS, type Traffic } from './traffic';

/**
 * The error answers of the document (API reference, errors): which codes an operation can get,
 * under which status, in the envelope the server writes (lib/http/errors.ts).
 */

type Json = Record<string, any>;

/** Every error code the document names (the traffic codes first: the typed client lists them so). */
export const DOC_ERROR_STATUS = { ...TRAFFIC_ERROR_STATUS, ...ERROR_STATUS } as const;
export type DocErrorCode = keyof typeof DOC_ERROR_STATUS;

/** By status, then name: the order of the conventions' table and of every list of codes. */
export const ERROR_CODES = (Object.keys(DOC_ERROR_STATUS) as DocErrorCode[]).sort(
  (a, b) => DOC_ERROR_STATUS[a] - DOC_ERROR_STATUS[b] || a.localeCompare(b),
);

const EXAMPLE_REQUEST_ID = 'Jk6sTgWmoAMEVvA=';

export const messageOf = (code: DocErrorCode) => new AppError(code).message;

/** One occurrence a series cannot book (every such occurrence is listed). */
const SERIES_CONFLICT_DETAIL = {
  path: 'scheduled_at',
  message: 'occurrence 9 (2027-02-01T15:00:00.000Z): The provider is not available at this time',
  index: 9,
  scheduled_at: '2027-02-01T15:00:00.000Z',
  code: 'PROVIDER_UNAVAILABLE',
  reason: 'overlap',
};

/** An error answer as the server writes it. */
export const errorExample = (code: DocErrorCode) => ({
  success: false,
  error: {
    code,
    message: messageOf(code),
    ...(code === 'VALIDATION_ERROR' ? { details: [{ path: 'scheduled_at', message: 'Invalid ISO datetime' }] } : {}),
    ...(code === 'SERIES_CONFLICT' ? { details: [SERIES_CONFLICT_DETAIL] } : {}),
    request_id: EXAMPLE_REQUEST_ID,
  },
});

/** `components.examples`: one error answer per code, which every error response refers to. */
export const errorExamples = () =>
  Object.fromEntries(ERROR_CODES.map((code) => [code, { summary: messageOf(code), value: errorExample(code) }]));

/** `components.schemas.FieldProblem`: one entry of `error.details`. */
export const FIELD_PROBLEM = {
  type: 'object',
  description: 'One problem with the request.',
  required: ['path', 'message'],
  properties: {
    path: {
      type: 'string',
      description: 'The field, parameter or header (`provider_id`, `items.0.name`, `If-Match`).',
    },
    message: { type: 'string', description: 'What is wrong with it.' },
    reason: {
      type: 'string',
      enum: [...UNAVAILABLE_REASONS],
      description: 'Why a provider, room or equipment is unavailable (`*_UNAVAILABLE` only).',
    },
    appointment_id: { type: 'string', format: 'uuid', description: 'For an overlap: the appointment in the way.' },
    hold_id: {
      type: 'string',
      format: 'uuid',
      description: 'For an overlap with a hold: the hold in the way (instead of `appointment_id`).',
    },
    index: {
      type: 'integer',
      minimum: 0,
      description:
        '`SERIES_CONFLICT`: the occurrence that cannot be booked (0-based); every such occurrence is listed.',
    },
    scheduled_at: {
      type: 'string',
      format: 'date-time',
      description: "`SERIES_CONFLICT`: that occurrence's start.",
    },
    code: {
      type: 'string',
      description:
        '`SERIES_CONFLICT`: why that occurrence cannot be booked, as a create would answer it (`PROVIDER_UNAVAILABLE`, `ROOM_UNAVAILABLE`, `EQUIPMENT_UNAVAILABLE`), with `reason`.',
    },
  },
} satisfies oas31.SchemaObject;

/** The error envelope of one response, `code` narrowed to the codes it can carry. */
const errorEnvelope = (codes: readonly DocErrorCode[]): Json => ({
  type: 'object',
  required: ['success', 'error'],
  properties: {
    success: { type: 'boolean', const: false, description: 'Always false for errors.' },
    error: {
      type: 'object',
      description: 'What went wrong.',
      required: ['code', 'message', 'request_id'],
      properties: {
        code: { type: 'string', enum: [...codes], description: 'Branch on this.' },
        message: { type: 'string', description: 'For people; may change. Branch on `code`.' },
        details: {
          type: 'array',
          items: { $ref: '#/components/schemas/FieldProblem' },
          description:
            'The field problems of a `VALIDATION_ERROR` (and the reasons of a `PROVIDER_UNAVAILABLE`; for `SERIES_CONFLICT`, one entry per occurrence that cannot be booked).',
        },
        request_id: { type: 'string', description: 'Also in the `X-Request-Id` header.' },
      },
    },
  },
  description: `An error: ${codes.join(', ')}.`,
});

export const header = (name: string) => ({ $ref: `#/components/headers/${name}` });

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

/** The content of an error response: its envelope and an example per code. */
const errorContent = (codes: readonly DocErrorCode[]) => ({
  'application/json': {
    schema: errorEnvelope(codes),
    examples: Object.fromEntries(codes.map((code) => [code, { $ref: `#/components/examples/${code}` }])),
  },
});

/**
 * What an operation can answer: its row's own codes, and those of the request chain that its
 * row's fields switch on (input, token, roles, waitlist, If-Match, body, keys, rate limit).
 */
export function errorCodesOf(route: RouteDef, traffic: Traffic): DocErrorCode[] {
  const codes = new Set<DocErrorCode>(route.errors);
  const ifMatch = honoursIfMatch(route);
  if (route.params || route.query || route.body || ifMatch) codes.add('VALIDATION_ERROR');
  if (route.body || route.queryFromBody) codes.add('INVALID_JSON');
  if (route.auth !== 'public') {
    codes.add('UNAUTHORIZED');
    codes.add('ORIGIN_NOT_ALLOWED');
    if (takesBearer(route) && !ROLES.every((role) => route.auth.includes(role))) codes.add('FORBIDDEN');
    if (!route.allowWaitlisted) codes.add('API_ACCESS_NOT_ENABLED');
    if (route.auth === 'publishable') codes.add('ONLINE_BOOKING_DISABLED');
  }
  if (route.auth === 'public' && route.origins === 'same') codes.add('ORIGIN_NOT_ALLOWED');
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
  // A constant page reads nothing that could fail.
  if (!route.produces || route.params) codes.add('INTERNAL_ERROR');
  return ERROR_CODES.filter((code) => codes.has(code));
}

/** The response of an error status: its codes, the headers it carries, an example per code. */
const errorResponse = (status: number, codes: readonly DocErrorCode[], rateHeaders: Json) => ({
  description: `${ERROR_TITLES[status] ?? 'Error'}: ${codes.join(', ')}`,
  headers: {
    'X-Request-Id': header('X-Request-Id'),
    ...rateHeaders,
    ...(codes.includes('RATE_LIMITED') ? { 'Retry-After': header('Retry-After') } : {}),
    ...(codes.includes('UNAUTHORIZED') ? { 'WWW-Authenticate': header('WWW-Authenticate') } : {}),
  },
  content: errorContent(codes),
});
type ErrorResponse = ReturnType<typeof errorResponse>;

/**
 * The error responses an operation refers to, collected while a document is built: operations
 * with the same codes at a status share one `components.responses` entry instead of each inlining
 * its envelope (they were about 40% of the document).
 */
let collected: Map<string, ErrorResponse> | null = null;

/** Runs `build` and answers what it built with the error responses its operations referred to. */
export function withErrorResponses<T>(build: () => T): { built: T; responses: Record<string, ErrorResponse> } {
  const previous = collected;
  collected = new Map();
  try {
    const built = build();
    return { built, responses: Object.fromEntries([...collected].sort(([a], [b]) => a.localeCompare(b))) };
  } finally {
    collected = previous;
  }
}

/** One response per error status of the operation, its codes listed (a reference to a shared one while collecting). */
export function errorResponsesOf(route: RouteDef, traffic: Traffic, rateHeaders: Json): Record<number, Json> {
  const byStatus = new Map<number, DocErrorCode[]>();
  for (const code of errorCodesOf(route, traffic))
    byStatus.set(DOC_ERROR_STATUS[code], [...(byStatus.get(DOC_ERROR_STATUS[code]) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, codes]) => {
      const response = errorResponse(status, codes, rateHeaders);
      if (!collected) return [status, response];
      // Named by what it holds: the status, the codes, and whether it carries the rate-limit headers.
      const name = `Error${status}.${codes.join('.')}${Object.keys(rateHeaders).length > 0 ? '' : '.unlimited'}`;
      collected.set(name, response);
      return [status, { $ref: `#/components/responses/${name}` }];
    }),
  );
}

/**
 * Refusals of the transport, before any route (docs/guide/choices.md, "Transport refusals"): every operation can
 * get them, so each refers to these `components.responses` instead of repeating them.
 */
const TRANSPORT_RESPONSES: Record<string, { status: number; code: DocErrorCode }> = {
  UriTooLong: { status: 414, code: 'URI_TOO_LONG' },
  HeadersTooLarge: { status: 431, code: 'HEADERS_TOO_LARGE' },
};

export const transportResponses = () =>
  Object.fromEntries(
    Object.entries(TRANSPORT_RESPONSES).map(([name, { status, code }]) => [
      name,
      {
        description: `${ERROR_TITLES[status]}: ${code} (the local server; on AWS the gateway answers these itself, with its own body)`,
        headers: { 'X-Request-Id': header('X-Request-Id') },
        content: errorContent([code]),
      },
    ]),
  );

/** An operation's references to the transport refusals, by status. */
export const transportRefs = () =>
  Object.fromEntries(
    Object.entries(TRANSPORT_RESPONSES).map(([name, { status }]) => [
      status,
      { $ref: `#/components/responses/${name}` },
    ]),
  );
