import jsonBodyParser from '@middy/http-json-body-parser';
import urlencodeBodyParser from '@middy/http-urlencode-body-parser';
import type * as z from '../schemas/zod';
import { isWellFormed, toWellFormed } from '../domain/text';
import { AppError, type FieldProblem } from '../errors';
import type { ApiMiddleware, ApiMiddyRequest } from './types';

export const MAX_BODY_BYTES = 256 * 1024;

// The contract is JSON-only, so a missing or odd Content-Type is still parsed as JSON.
const jsonParser = jsonBodyParser({ disableContentTypeCheck: true } as never);
const formParser = urlencodeBodyParser({ disableContentTypeError: true });

/**
 * Size limit first (413, on the bytes sent), then JSON (or the OAuth form where the route takes it)
 * through middy's parsers, their failures mapped to the contract's INVALID_JSON. An empty body
 * parses to undefined.
 */
async function parseBody(request: ApiMiddyRequest): Promise<void> {
  const { event } = request;
  const { route } = request.internal;
  if (route.fallback || event.body === undefined || event.body === null || event.body === '') {
    (event as { body?: unknown }).body = undefined;
    return;
  }
  const decoded = event.isBase64Encoded ? Buffer.from(event.body, 'base64') : undefined;
  if ((decoded?.length ?? Buffer.byteLength(event.body)) > MAX_BODY_BYTES) throw new AppError('PAYLOAD_TOO_LARGE');
  // API Gateway base64-encodes every body it does not take for text (forms and a missing
  // Content-Type included). Decoded here, once: middy's form parser would detect a malformed form
  // against the still-encoded body, and the contract parses any Content-Type as JSON.
  if (decoded) Object.assign(event, { body: decoded.toString('utf8'), isBase64Encoded: false });
  const contentType = event.headers?.['content-type'] ?? '';
  if (/^application\/x-www-form-urlencoded/i.test(contentType)) {
    if (!route.acceptsForm) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send JSON (Content-Type: application/json)');
    try {
      await formParser.before!(request as never);
    } catch {
      // middy refuses a body with no `name=value` pair (as a 415 HttpError): a malformed form is a 400.
      throw new AppError('VALIDATION_ERROR', 'The body is not a URL-encoded form (name=value&...)', {
        details: [{ path: 'body', message: 'malformed form' }],
      });
    }
    return;
  }
  try {
    await jsonParser.before!(request as never);
  } catch {
    throw new AppError('INVALID_JSON');
  }
}

type Issue = z.core.$ZodIssue;

/**
 * A body that fits no shape of a union (a public booking of a time, or of a held time) is
 * answered by the shape it came closest to, its fewest problems, each at its own path.
 */
function closestBranch(issue: Issue): Issue[] {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [issue];
  const closest = issue.errors.reduce((best, branch) => (branch.length < best.length ? branch : best));
  return closest.flatMap((inner) => closestBranch({ ...inner, path: [...issue.path, ...inner.path] } as Issue));
}

/** Zod issues become the contract's `details: [{ path, message }]`. */
export function parseInput<T>(schema: z.ZodMiniType<T> | undefined, value: unknown, where: string): T {
  if (!schema) return value as T;
  const result = schema.safeParse(value ?? (where === 'body' ? undefined : {}));
  if (result.success) return result.data;
  const details: FieldProblem[] = result.error.issues.flatMap(closestBranch).flatMap((issue): FieldProblem[] => {
    const at = (path: PropertyKey[]) => (path.length ? path.map(String).join('.') : where);
    // An unknown key is reported at its own path, so a typo is named, not the whole body.
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        path: at([...issue.path, key]),
        message: where === 'query' ? 'unknown parameter' : 'unknown field',
      }));
    }
    if (issue.code === 'invalid_type' && /received undefined$/.test(issue.message))
      return [{ path: at(issue.path), message: `${at(issue.path)} is required` }];
    return [{ path: at(issue.path), message: issue.message }];
  });
  throw new AppError(
    'VALIDATION_ERROR',
    `Invalid ${where}: ${details.map((d) => `${d.path}: ${d.message}`).join('; ')}`,
    { details },
  );
}

const MAX_TEXT_PROBLEMS = 20;

/**
 * Strings DynamoDB refuses: a lone surrogate has no UTF-8 form, so AWS answers the write (or a key
 * condition naming it) with a ValidationException, a 500 here; DynamoDB Local takes it. Every
 * string of the input (values and keys, at any depth; iterative, so no nesting overflows a stack)
 * is checked once, before the schemas, and each ill-formed one is named as a field problem.
 */
export function illFormedStrings(value: unknown, where: string): FieldProblem[] {
  // Paths as parent links, spelled out only for a problem: a deeply nested body costs no copies.
  type Path = { key: string; parent: Path } | null;
  const spell = (path: Path) => {
    const keys: string[] = [];
    for (let at = path; at; at = at.parent) keys.push(at.key);
    return keys.length ? toWellFormed(keys.reverse().join('.')) : where;
  };
  const problems: FieldProblem[] = [];
  const stack: [unknown, Path][] = [[value, null]];
  // A few named problems say enough, and keep a body of thousands of them cheap to answer.
  while (stack.length > 0 && problems.length < MAX_TEXT_PROBLEMS) {
    const [node, path] = stack.pop()!;
    if (typeof node === 'string') {
      if (!isWellFormed(node))
        problems.push({ path: spell(path), message: 'not valid Unicode text (a lone surrogate)' });
    } else if (node !== null && typeof node === 'object') {
      for (const [key, item] of Object.entries(node)) {
        const child = { key, parent: path };
        if (!isWellFormed(key))
          problems.push({ path: spell(child), message: 'the field name is not valid Unicode text (a lone surrogate)' });
        stack.push([item, child]);
      }
    }
  }
  return problems.slice(0, MAX_TEXT_PROBLEMS).reverse();
}

function assertWellFormedInput(parts: Record<string, unknown>): void {
  const details = Object.entries(parts).flatMap(([where, value]) => illFormedStrings(value, where));
  if (details.length > 0)
    throw new AppError('VALIDATION_ERROR', `Invalid text: ${details.map((d) => d.path).join(', ')}`, { details });
}

/** `If-Match: "3"`, `W/"3"` or `3`. Anything else is a validation error, not a silent ignore. */
export function parseIfMatch(header: string | undefined): number | undefined {
  if (header === undefined || header.trim() === '*') return undefined;
  const match = /^\s*(?:W\/)?(?:"(\d+)"|(\d+))\s*$/.exec(header);
  if (!match) {
    throw new AppError('VALIDATION_ERROR', 'If-Match must be a resource version such as "3"', {
      details: [{ path: 'If-Match', message: 'expected a version such as "3"' }],
    });
  }
  const version = Number(match[1] ?? match[2]);
  // No resource ever reaches such a version: stale by definition (and unsafe to send to DynamoDB).
  if (!Number.isSafeInteger(version)) throw new AppError('VERSION_CONFLICT');
  return version;
}

/** Body, query, path parameters and If-Match, parsed and validated against the route's schemas. */
export const input = (): ApiMiddleware => ({
  before: async (request) => {
    await parseBody(request);
    const { event } = request;
    const state = request.internal;
    const { route } = state;
    const rawQuery = event.queryStringParameters ?? {};
    const bodyAsQuery =
      route.queryFromBody && event.body && typeof event.body === 'object' ? (event.body as object) : {};
    // An unknown route is a 404 whatever it carries.
    if (!route.fallback) assertWellFormedInput({ body: event.body, query: rawQuery, path: state.params });
    state.input = {
      body: parseInput(route.body, route.body ? event.body : undefined, 'body'),
      query: parseInput(route.query, { ...bodyAsQuery, ...rawQuery }, 'query'),
      params: parseInput(route.params, state.params, 'path'),
      ifMatch: parseIfMatch(event.headers?.['if-match']),
    };
  },
});
