import { audit } from './audit';
import { auth } from './auth';
import { composeChain } from './chain';
import { idempotency } from './idempotency';
import { rateLimit } from './rate-limit';
import type { RouteDef } from './route';
import type { ApiRequest, ApiResult } from './types';

export type { ApiRequest, ApiResult } from './types';

/**
 * The handler of a route: the shared chain (./chain.ts) with the caller's work in it. Rate
 * limiting and the idempotency claim hang their work on authentication, which runs it in parallel
 * with the credential check. A handler module is
 * `export const handler = httpHandler(appointmentRoutes.createAppointment, async (req) => ({ data }))`.
 */
export function httpHandler<R extends RouteDef & { operation: string }>(
  route: R,
  fn: (request: ApiRequest<R>) => Promise<ApiResult>,
) {
  return composeChain(route, fn, [audit(), rateLimit(), idempotency(), auth()]);
}
