import { successStatusOf, type RouteDef } from './route';
import { json, type ApiMiddleware, type ApiResponse, type ApiResult } from './types';

/** The response schema shapes what leaves: field order as documented, nothing internal. */
function shape(route: RouteDef, data: unknown): unknown {
  if (!route.response) return data;
  const parsed = route.response.safeParse(data);
  if (!parsed.success) throw new Error(`response does not match its schema: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

function successResponse(route: RouteDef, raw: ApiResult): ApiResponse {
  const result = { ...raw, data: shape(route, raw.data) };
  const status = result.status ?? successStatusOf(route);
  if (route.envelope === false) return json(status, result.data, result.headers);
  const data = result.data as { version?: unknown } | null;
  const etag: Record<string, string> = !result.pagination && data && typeof data.version === 'number' ? { etag: `"${data.version}"` } : {};
  return json(status, { success: true, data: result.data, ...(result.pagination ? { pagination: result.pagination } : {}) }, { ...etag, ...result.headers });
}

/**
 * Turns the handler's result into the envelope (or the bare RFC shape), with the ETag of a single
 * versioned resource and the request id. A create's id becomes the audited resource.
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
    // Credentials are named by client_id (they have no `id`): the audit log records that.
    const data = result.data as { id?: unknown; client_id?: unknown } | null;
    const created = data?.id ?? data?.client_id;
    if (!state.resourceId && typeof created === 'string') state.resourceId = created;
    const shaped = successResponse(state.route, result);
    shaped.headers = { ...shaped.headers, 'x-request-id': state.requestId };
    request.response = shaped;
  },
});
