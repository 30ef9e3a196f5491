import { createHash } from 'node:crypto';
import { AppError } from '../errors';
import { logger } from '../log';
import type { PrebuiltAnswer } from './prebuilt';
import { successStatusOf, type RouteDef } from './route';
import { json, jsonText, type ApiMiddleware, type ApiMiddyRequest, type ApiResponse, type ApiResult } from './types';

/**
 * Lambda refuses a response payload over 6 MB (6,291,456 bytes): the JSON of status, headers and
 * body, so the body's own escapes count twice. Past it API Gateway answers a bare 502. The margin
 * is for the headers later middlewares add (request id, rate limits, CORS): well under 64 KiB.
 */
export const MAX_RESPONSE_BYTES = 6 * 1024 * 1024 - 64 * 1024;

/** What the response costs in Lambda's payload. */
export const payloadBytes = (response: ApiResponse) => Buffer.byteLength(JSON.stringify(response), 'utf8');

/** The response schema shapes what leaves: field order as documented, nothing internal. */
function shape(route: RouteDef, data: unknown): unknown {
  if (!route.response) return data;
  const parsed = route.response.safeParse(data);
  if (!parsed.success)
    throw new Error(
      `response does not match its schema: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  return parsed.data;
}

/**
 * A list page's ETag: a weak tag of its items (their JSON), its total and whether more follow,
 * never of its cursor (sealed afresh each time, so two reads of the same page never share their bytes).
 */
const listETag = (dataText: string, pagination: NonNullable<ApiResult['pagination']>) =>
  `W/"${createHash('sha256')
    .update(dataText)
    .update(
      'total' in pagination
        ? `|${pagination.total}|${pagination.next_cursor === null ? 'last' : 'more'}`
        : `|${pagination.has_more ? 'more' : 'last'}`,
    )
    .digest('base64url')
    .slice(0, 27)}"`;

function envelope(route: RouteDef, result: ApiResult, data: unknown): ApiResponse {
  const status = result.status ?? successStatusOf(route);
  if (route.envelope === false) return json(status, data, result.headers);
  const { pagination } = result;
  if (pagination) {
    // The items' JSON made once, for the body (as JSON.stringify of the envelope writes it) and its ETag.
    const dataText = JSON.stringify(data);
    return jsonText(status, `{"success":true,"data":${dataText},"pagination":${JSON.stringify(pagination)}}`, {
      etag: listETag(dataText, pagination),
      ...result.headers,
    });
  }
  const versioned = data as { version?: unknown } | null;
  const etag: Record<string, string> =
    versioned && typeof versioned.version === 'number' ? { etag: `"${versioned.version}"` } : {};
  return json(status, { success: true, data }, { ...etag, ...result.headers });
}

/**
 * A list page Lambda could not carry is cut short, with the cursor after its last item as
 * `next_cursor` (API reference, conventions: `limit` is at most; following the cursors still yields every item).
 * Only lists whose page reader can make that cursor (`cursorAfter`) are cut; any other answer too
 * large is a 400 VALIDATION_ERROR asking for less, never the gateway's bare 502.
 */
function withinPayloadLimit(
  request: ApiMiddyRequest,
  result: ApiResult,
  data: unknown,
  answer: ApiResponse,
): ApiResponse {
  // A body char is at most 3 bytes of payload (a raw non-ASCII char; escapes are ASCII): most answers need no measuring.
  if (String(answer.body ?? '').length * 3 <= MAX_RESPONSE_BYTES || payloadBytes(answer) <= MAX_RESPONSE_BYTES)
    return answer;
  const { route } = request.internal;
  const tooLarge = () =>
    new AppError(
      'VALIDATION_ERROR',
      'The answer would be larger than the 6 MB a response can carry; ask for less (fewer items, a shorter range)',
      {
        details: [{ path: result.pagination ? 'limit' : 'query', message: 'the answer is too large for one response' }],
      },
    );
  if (route.method !== 'GET') {
    // A change has committed by now: its answer stands (no POST answers anything near this size).
    logger.error('response over the Lambda payload limit', {
      operation: route.operation,
      requestId: request.internal.requestId,
      bytes: payloadBytes(answer),
    });
    return answer;
  }
  const { cursorAfter, pagination } = result;
  if (!Array.isArray(data) || !pagination || !('total' in pagination) || !cursorAfter) throw tooLarge();
  // Each item's share of the payload (its JSON, escaped again, plus a comma), and room for a longer cursor.
  const fixed =
    payloadBytes(envelope(route, { ...result, pagination: { ...pagination, next_cursor: null } }, [])) + 1024;
  let count = 0;
  for (let bytes = fixed; count < data.length; count += 1) {
    bytes += Buffer.byteLength(JSON.stringify(JSON.stringify(data[count])), 'utf8') - 1;
    if (bytes > MAX_RESPONSE_BYTES) break;
  }
  for (; count > 0; count -= 1) {
    const cut = envelope(
      route,
      { ...result, pagination: { ...pagination, next_cursor: cursorAfter(count - 1) } },
      data.slice(0, count),
    );
    if (payloadBytes(cut) <= MAX_RESPONSE_BYTES) return cut;
  }
  throw tooLarge();
}

function shapedAnswer(request: ApiMiddyRequest, result: ApiResult): ApiResponse {
  const data = shape(request.internal.route, result.data);
  return withinPayloadLimit(request, result, data, envelope(request.internal.route, result, data));
}

const isPrebuilt = (data: unknown): data is PrebuiltAnswer =>
  typeof (data as Partial<PrebuiltAnswer> | null)?.respond === 'function';

/** A `prebuilt` row's answer: made and checked against `response` at build time, sent as it is. */
function prebuilt(request: ApiMiddyRequest, result: ApiResult): ApiResponse {
  const { route } = request.internal;
  if (!isPrebuilt(result.data)) throw new Error(`${route.operation} is prebuilt: its handler answers a PrebuiltAnswer`);
  const answer = result.data.respond(
    result.status ?? successStatusOf(route),
    result.headers,
    request.event.headers?.['accept-encoding'],
  );
  return withinPayloadLimit(request, result, undefined, answer);
}

/**
 * Turns the handler's result into the envelope (or the bare RFC shape, or a prebuilt answer), with
 * the ETag of a single versioned resource and the request id, within Lambda's payload limit. A
 * create's id becomes the audited resource.
 */
export const response = (): ApiMiddleware => ({
  after: async (request) => {
    const state = request.internal;
    if (state.replay) {
      request.response = { ...state.replay, headers: { ...state.replay.headers, 'x-request-id': state.requestId } };
      return;
    }
    const result = request.response as unknown as ApiResult;
    state.result = result;
    // Credentials are named by client_id, public holds by hold_id (they have no `id`): the audit log records that.
    const data = result.data as { id?: unknown; client_id?: unknown; hold_id?: unknown } | null;
    const created = data?.id ?? data?.client_id ?? data?.hold_id;
    if (!state.resourceId && typeof created === 'string') state.resourceId = created;
    const shaped = state.route.prebuilt ? prebuilt(request, result) : shapedAnswer(request, result);
    shaped.headers = { ...shaped.headers, 'x-request-id': state.requestId };
    request.response = shaped;
  },
});
