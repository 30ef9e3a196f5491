import { corsAnswerHeaders, originAllowed } from '../domain/cors';
import { AppError } from '../errors';
import { serverUrlOf } from './server-url';
import { withVary, type ApiMiddleware, type ApiMiddyRequest, type RequestState } from './types';

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
  if (allowed !== 'any' && !originAllowed(origin, allowed) && !isOwnOrigin(request, origin))
    throw new AppError('ORIGIN_NOT_ALLOWED');
  request.internal.corsOrigin = origin;
}

/**
 * A caller that cannot be identified (no, unknown or expired credential) has no list to judge its
 * origin by, and a 401 tells nothing: answered readably, so a web app can sign in again.
 */
export const admitUnidentified = (request: ApiMiddyRequest) => admitOrigin(request, 'any');

const addHeaders = async (request: ApiMiddyRequest) => {
  const state: RequestState = request.internal;
  if (!state.corsOrigin || !request.response || state.route.preflight) return;
  const { Vary: vary, ...cors } = corsAnswerHeaders(state.corsOrigin);
  // One Vary: a handler's own (the OpenAPI document's Host, Accept-Encoding) gains Origin.
  request.response.headers = withVary({ ...request.response.headers, ...cors }, vary!);
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
