import { composeChain } from './chain';
import type { RouteDef } from './route';
import type { ApiRequest, ApiResult } from './types';

/** A public row that reads no table, so takes no per-IP limit either (its bucket is in the table). */
export type TablelessRoute = RouteDef & {
  operation: string;
  auth: 'public';
  touches: { table: false };
  limitPerIp?: false;
};

/**
 * The handler of a public route that never reads the table (`touches: { table: false }`: the health
 * check, the JWKS, the OpenAPI document, the CORS preflight, the 404): the same chain without the
 * caller's work (audit, rate limit, idempotency, authentication), which such a route never does.
 * So its bundle carries no DynamoDB client: its cold start skips the SDK's import.
 */
export function tablelessHandler<R extends TablelessRoute>(
  route: R,
  fn: (request: ApiRequest<R>) => Promise<ApiResult>,
) {
  return composeChain(route, fn, []);
}
