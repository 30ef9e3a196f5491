import * as z from '../schemas/zod';
import type { Role } from '../auth/roles';
import type { SecretName } from '../crypto/named-secret';
import { mergeReads, mergeWrites, type TableReads, type TableWrites } from '../db/table-writes';
import type { ErrorCode } from '../errors';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/** A body that is not JSON, for the document: what it is and an example. */
export interface RawBody {
  description: string;
  example: string;
}

/**
 * A file made at build time rather than copied from a package: `generated` names its generator in
 * infra/generated-files.ts. By name, because a row is bundled into every function of its group
 * and must not import what makes the file (the OpenAPI builder is zod-openapi and every route).
 */
export interface GeneratedFile {
  generated: 'openapi';
}

/** A function's files beside its bundle: file name -> package path, or a generated file. */
export type FilesBeside = Readonly<Record<string, string | GeneratedFile>>;

/** One row of the route table: everything the CDK stack, local server, OpenAPI and client need. */
export interface RouteDef {
  method: HttpMethod;
  /**
   * A GET route that also answers HEAD, as GET without the body. An API Gateway HTTP API matches a
   * route's method exactly (a GET route does not take HEAD: it falls to `$default`, a 404), so the
   * stack gives the function a `HEAD` route too, and the local router does the same.
   */
  head?: boolean;
  /** API Gateway style, e.g. `/v1/appointments/{id}`. */
  path: string;
  /** Handler module: `functions/<group>/<operation>.ts`. */
  group: string;
  summary: string;
  /**
   * `public`: no credential. `publishable`: a publishable key in `X-Publishable-Key` (the
   * `/v1/public/*` operations; caller role `public`). Otherwise a bearer token of one of these roles.
   */
  auth: 'public' | 'publishable' | readonly Role[];
  /**
   * Which browser origins an unauthenticated (`public`) route answers (API reference, online
   * booking and CORS): `any` (the default: nothing behind it is the caller's), or `same`: only
   * pages this API serves (the token exchange: a client secret has no place in a browser).
   * Authenticated routes answer their practice's or key's allowed origins.
   */
  origins?: 'any' | 'same';
  /** Also rate limited per client IP. Default: publishable-key routes. Refused on staff routes (their chain starts with the token). */
  limitPerIp?: boolean;
  /** The CORS preflight of every `/v1/...` path (an `OPTIONS` catch-all; no operation of its own). */
  preflight?: boolean;
  params?: z.ZodMiniType;
  query?: z.ZodMiniType;
  body?: z.ZodMiniType;
  response?: z.ZodMiniType;
  /** A list's `pagination` when not the contract's `{ total, next_cursor }` (the event feed's: lib/schemas/event-feed.ts). */
  pagination?: z.ZodMiniType;
  /** The status of a success, when not the default (201 for POST, 200 otherwise). */
  successStatus?: 200 | 201 | 202;
  /** Defaults to true: `{ success, data }`. Token and JWKS answers are bare (RFC shapes). */
  envelope?: boolean;
  /** Reachable while the practice is still waitlisted (so it can see its own status). */
  allowWaitlisted?: boolean;
  /** Content types accepted besides JSON. */
  acceptsForm?: boolean;
  /** Non-JSON answers: content type -> the body (Swagger UI's page and files). Default: JSON, from `response`. */
  produces?: Readonly<Record<string, RawBody>>;
  /**
   * The codes the operation itself answers (its not-found and business-rule errors, API
   * reference: errors). The request chain's own codes follow from the other fields: validation,
   * authentication, roles, waitlist, If-Match, body size and type, Idempotency-Key, rate limit.
   */
  errors?: readonly ErrorCode[];
  /** Reads If-Match (409 VERSION_CONFLICT when stale). Default: PATCH and DELETE. */
  ifMatch?: boolean;
  /** The client may authenticate with HTTP Basic instead (RFC 6749 2.3.1): the token exchange. */
  basicAuth?: boolean;
  /** Still answers, but integrators should call another path (the document says so). */
  deprecated?: boolean;
  /**
   * Answers every request no other route matches (API Gateway's `$default` route, the local
   * router's last resort), so an unknown path gets the contract's 404 envelope, not the gateway's.
   */
  fallback?: boolean;
  /** GET routes whose filters may also come as a JSON body (API reference, appointments: appointments list). */
  queryFromBody?: boolean;
  /** Takes `Idempotency-Key` (`required`: 400 without one). Default: every authenticated POST. */
  idempotent?: boolean | 'required';
  /** The function's time limit when not the default 10 s (e.g. a route that makes a webhook attempt itself). */
  timeoutSeconds?: number;
  /**
   * Files deployed beside the function's bundle, read at run time rather than inlined into the
   * code Node parses on every cold start: file name -> package path (e.g. a static asset), or a
   * file generated at build time (both builds write it: infra/constructs/bundling.ts).
   */
  filesBeside?: FilesBeside;
  /**
   * The answer is JSON text made at build time and checked against `response` there (a generated
   * file beside the bundle): the handler gives it as a `PrebuiltAnswer` and the request chain
   * sends it as it is (gzipped when the client takes it), without shaping and serializing it per
   * request (lib/http/response.ts). Bare answers only (`envelope: false`).
   */
  prebuilt?: boolean;
  /**
   * What the operation itself writes (lib/db/table-writes.ts); the request chain's own writes are
   * added by `tableWritesOf`. Its function's IAM role is generated from the sum.
   */
  writes?: TableWrites;
  /**
   * What the operation itself reads, by partition family (lib/db/keys.ts PARTITIONS, and
   * INDEX_PARTITIONS for its Queries on an index); the request chain's own reads are added by
   * `tableReadsOf`. Required of every row whose function reads the table (`[]` when only the chain
   * reads): `route` refuses a row without it. Its function's IAM role reads exactly the sum.
   */
  reads?: TableReads;
  /**
   * What else the function touches, when not the default. `table: false`: it never reads the table
   * (no TABLE_NAME, no table grant). `tokenKey`: `verify` reads the token key's public half
   * (TOKEN_PUBLIC_KEY; the default of bearer-token routes), `none` never touches it (the default
   * of unauthenticated and publishable-key routes). Signing is the stack's list of signing operations.
   * `secrets`: the service secrets it reads (lib/crypto/named-secret.ts) beyond the cursor secret
   * of a paginated list, which its `cursor` query parameter implies.
   */
  touches?: {
    table?: false;
    tokenKey?: 'verify' | 'none';
    secrets?: readonly SecretName[];
    /**
     * What it does with the clinical photos' objects (section 13): `upload` signs upload URLs,
     * `read` checks arrival, confirms and signs download URLs, `delete` deletes, `confirm` only
     * re-tags an arrived object (the photos-arrival worker, lib/workers). Its role gets
     * the matching S3 actions on the photos prefix only (infra/constructs/app-function.ts `bindPhotos`).
     */
    photos?: readonly PhotoAccess[];
  };
  /** A GET whose successful answers are audited too, not only its denials (PHI reads: photos, a lot's exposures). */
  auditReads?: boolean;
}

export type PhotoAccess = 'upload' | 'read' | 'delete' | 'confirm';

/** What a route's function does with photo objects (sorted; empty for most). */
export const photoAccessOf = (route: RouteDef): PhotoAccess[] => [...new Set(route.touches?.photos ?? [])].sort();

/**
 * One row of the table, named. Its fields come from a function and each call is written
 * `/* @__PURE__ *\/ route(...)` (esbuild does not carry this function's own annotation across
 * modules), so a function's bundle keeps only its own row and what that row reaches: esbuild drops
 * the group's other rows and their schemas, and a cold start builds one route's schemas
 * (docs/decisions/0011). A handler takes its row from the group module's namespace.
 */
/* @__NO_SIDE_EFFECTS__ */
export function route<const N extends string, R extends RouteDef>(operation: N, fields: () => R): R & { operation: N } {
  const row = fields() as R & { operation: N };
  row.operation = operation;
  if (row.head && row.method !== 'GET') throw new Error(`${operation}: head is for GET routes`);
  // A staff call is identified by its token before anything else runs: a per-IP limit would never be taken.
  if (row.limitPerIp && takesBearer(row))
    throw new Error(`${operation}: limitPerIp is for unauthenticated and publishable-key routes`);
  // Unknown query parameters are refused (API reference, conventions), in one place: a typo never silently widens a list.
  // An API operation that takes none refuses any (the site's pages and files take cache-busting ones; a preflight answers by path).
  if (!row.query && row.path.startsWith('/v1/') && !row.preflight) row.query = z.object({});
  if (row.query instanceof z.ZodMiniObject) row.query = z.catchall(row.query, z.never());
  // Its role reads exactly what it declares: a row that reads the table without saying what is refused.
  if (readsTable(row) && !row.reads)
    throw new Error(`${operation}: declare the partitions it reads (reads, lib/db/keys.ts), or touches.table false`);
  return row;
}

/** A group of rows keyed by operation name (each row carries its name too, so a handler needs only its row). */
/* @__NO_SIDE_EFFECTS__ */
export function defineRoutes<T extends Record<string, RouteDef & { operation: string }>>(rows: T): T {
  for (const [key, row] of Object.entries(rows))
    if (row.operation !== key) throw new Error(`route ${key} is named ${row.operation}`);
  return rows;
}

/** The methods a route answers, each an API Gateway route of its own: its method, and HEAD when it says so. */
export const methodsOf = (route: RouteDef): readonly (HttpMethod | 'HEAD')[] =>
  route.head ? [route.method, 'HEAD'] : [route.method];

/** Whether a route takes `Idempotency-Key` (API reference, conventions: POSTs; the token exchange is not a change). */
export const isIdempotent = (route: RouteDef) =>
  route.idempotent === undefined ? route.method === 'POST' && route.auth !== 'public' : route.idempotent !== false;

/** Whether a route takes a staff bearer token (every route but the unauthenticated and public-booking ones). */
export const takesBearer = (route: RouteDef): route is RouteDef & { auth: readonly Role[] } =>
  Array.isArray(route.auth);

/** Whether a route reads If-Match (API reference, conventions: versioning). */
export const honoursIfMatch = (route: RouteDef) =>
  route.ifMatch ?? (route.method === 'PATCH' || route.method === 'DELETE');

/** Whether a route is rate limited per credential (every authenticated route; a publishable key is one). */
export const isRateLimited = (route: RouteDef) => route.auth !== 'public';

/**
 * Whether a route's reads may start before its caller's gate (a token's credential check and
 * bucket; a publishable key's bucket, once the key is known) has opened: a GET with a caller that
 * writes nothing. Its answer still waits for the gate, and a refusal discards what was read
 * (docs/decisions/0014).
 */
export const readsOverlapGate = (route: RouteDef) => route.method === 'GET' && !route.writes && route.auth !== 'public';

/**
 * Whether a route is rate limited per client IP before its caller is known: calls with a
 * publishable key (taken only when the key turns out unknown), and the unauthenticated routes
 * that check something a stranger could guess at (the token exchange). Health, JWKS and the
 * documents never touch the table: the stage's throttle covers them.
 */
export const isLimitedPerIp = (route: RouteDef) => route.limitPerIp ?? route.auth === 'publishable';

/** Whether a route is limited by a publishable key's own budgets: each client IP's, and the key's overall one. */
export const isLimitedByKey = (route: RouteDef) => route.auth === 'publishable';

/**
 * Everything a route's function writes: its row's writes plus the request chain's (lib/http): the
 * audit entry of every authenticated call (denials included, GETs too), the rate-limit buckets of
 * every rate-limited call, the Idempotency-Key record of keyed routes (claim, commit, release).
 */
export const tableWritesOf = (route: RouteDef): TableWrites =>
  mergeWrites(
    route.writes,
    route.auth === 'public' ? undefined : { audit: ['put'] },
    isRateLimited(route) ? { rateLimit: ['update'] } : undefined,
    isLimitedByKey(route) ? { keyIpRateLimit: ['update'] } : undefined,
    isLimitedPerIp(route) ? { ipRateLimit: ['update'] } : undefined,
    isIdempotent(route) ? { idempotency: ['delete', 'put', 'update'] } : undefined,
  );

/**
 * Everything a route's function reads: its row's reads plus the request chain's (lib/http): the
 * credential and the practice of a bearer token's call (lib/auth/access.ts), the publishable key
 * and its practice of a public-booking call, the Idempotency-Key record of keyed routes.
 */
export const tableReadsOf = (route: RouteDef): TableReads =>
  mergeReads(
    route.reads,
    takesBearer(route) ? ['credentials', 'practice'] : undefined,
    route.auth === 'publishable' ? ['publishableKeys', 'practice'] : undefined,
    isIdempotent(route) ? ['idempotency'] : undefined,
  );

/** Whether a route's function reads the table (its role's reads, TABLE_NAME). */
export const readsTable = (route: RouteDef) => route.touches?.table !== false;

/**
 * An object schema's fields (none for any other schema). By its definition's type, not `instanceof
 * z.core.$ZodObject`: a function bundle that reads it at run time (the secrets a row names, in
 * lib/http/handler.ts) would otherwise keep zod's whole `core` namespace, every locale included.
 */
export const shapeOf = (schema: z.core.$ZodType | undefined): Readonly<Record<string, z.core.$ZodType>> =>
  schema?._zod.def.type === 'object' ? (schema as z.core.$ZodObject)._zod.def.shape : {};

/** Whether a route's query takes a pagination cursor. */
export const takesCursor = (route: RouteDef) => 'cursor' in shapeOf(route.query);

/** The service secrets a route's function is given: a paginated list's cursor secret, and what it declares. */
export const secretsOf = (route: RouteDef): SecretName[] =>
  [
    ...new Set<SecretName>([...(takesCursor(route) ? (['cursor'] as const) : []), ...(route.touches?.secrets ?? [])]),
  ].sort();

/** Whether a route's function verifies tokens with the token key's public half (given as TOKEN_PUBLIC_KEY). */
export const verifiesWithTokenKey = (route: RouteDef) =>
  (route.touches?.tokenKey ?? (takesBearer(route) ? 'verify' : 'none')) === 'verify';

export const successStatusOf = (route: RouteDef) => route.successStatus ?? (route.method === 'POST' ? 201 : 200);

/** Handler module path of an operation, relative to the project root, without extension. */
export const handlerModule = (operation: string, route: RouteDef) => `functions/${route.group}/${operation}`;

/** A list's `data` schema; its `pagination` comes beside it in the envelope. */
export const list = <T extends z.ZodMiniType>(item: T) => z.array(item);

/** The routes an integrator can call (the fallback and the CORS preflight are none). */
export const callableRoutes = <T extends Record<string, RouteDef>>(table: T) =>
  Object.entries(table as Record<string, RouteDef>).filter(([, route]) => !route.fallback && !route.preflight);
