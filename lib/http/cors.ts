import { corsAnswerHeaders, originAllowed } from '../domain/cors';
import { AppError } from '../errors';
import { serverUrlOf } from './server-url';
import type { ApiMiddleware, ApiMiddyRequest, RequestState } from './types';

/** The request's `Origin`, when a browser sent one. */
const originOf = (request: ApiMiddyRequest) => request.event.headers?.origin;

/** Pages this API serves itself (the docs, the booking page) call it from its own origin. */
const isOwnOrigin = (request: ApiMiddyRequest, origin: string) => serverUrlOf(request.event.headers ?? {}) === origin;

/**
 * Judges the request's `Origin` against what the caller allows (API reference, online booking
 * and CORS): refused, 403 ORIGIN_NOT_ALLOWED with no CORS headers, before any work. Called once
 * the allowed list is known: here for unauthenticated routes, by auth for the others. `'any'`:
 * every origin; the API's own origin is always allowed.
 */
export function admitOrigin(request: ApiMiddyRequest, allowed: readonly string[] | 'any'): void {
  const origin = originOf(request);
  if (!origin) return;
  if (allowed !== 'any' && !originAllowed(origin, allowed) && !isOwnOrigin(request, origin)) throw new AppError('ORIGIN_NOT_ALLOWED');
  request.internal.corsOrigin = origin;
}

/**
 * A caller that cannot be identified (no, unknown or expired credential) has no list to judge its
 * origin by, and a 401 tells nothing: answered readably, so a web app can sign in again.
 */
export const admitUnidentified = (request: ApiMiddyRequest) => admitOrigin(request, 'any');

/**
 * The answer's headers with the CORS ones, one Vary among them: a handler's own `vary` (any case)
 * keeps its names and gains `Origin`, rather than two Vary headers of which a proxy keeps one.
 */
function withCorsHeaders(headers: Record<string, string | number | boolean> = {}, origin: string) {
  const { Vary: corsVary, ...cors } = corsAnswerHeaders(origin);
  const merged: Record<string, string | number | boolean> = {};
  const vary: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() === 'vary') vary.push(...String(value).split(','));
    else merged[name] = value;
  }
  vary.push(corsVary!);
  const names = [...new Map(vary.map((name) => name.trim()).filter(Boolean).map((name) => [name.toLowerCase(), name])).values()];
  return { ...merged, ...cors, Vary: names.join(', ') };
}

const addHeaders = async (request: ApiMiddyRequest) => {
  const state: RequestState = request.internal;
  if (!state.corsOrigin || !request.response || state.route.preflight) return;
  request.response.headers = withCorsHeaders(request.response.headers, state.corsOrigin);
};

/**
 * CORS in the request chain, so the local server and Lambda answer alike (the HTTP API has no CORS
 * configuration of its own). Requests without `Origin` (servers) are untouched; every answer to an
 * admitted origin, errors included, carries Access-Control-Allow-Origin, Vary and Expose-Headers.
 */
export const cors = (): ApiMiddleware => ({
  before: async (request) => {
    const { route } = request.internal;
    if (route.auth === 'public') admitOrigin(request, route.origins === 'same' ? [] : 'any');
  },
  after: addHeaders,
  onError: addHeaders,
});
