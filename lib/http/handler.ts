import { audit } from './audit';
import { auth } from './auth';
import { composeChain } from './chain';
import { idempotency } from './idempotency';
import { rateLimit } from './rate-limit';
import { loadSecretKeys } from '../crypto/named-secret';
import { secretsOf, type RouteDef } from './route';
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
  // The service secrets the row names (a list's cursor, a manage token, webhook secrets at rest):
  // read at the first request and kept (lib/crypto/named-secret.ts), before the operation uses them.
  const secrets = secretsOf(route);
  const work =
    secrets.length === 0
      ? fn
      : async (request: ApiRequest<R>) => {
          await Promise.all(secrets.map(loadSecretKeys));
          return fn(request);
        };
  return composeChain(route, work, [audit(), rateLimit(), idempotency(), auth()]);
}
