/**
 * DynamoDB round trips of a piece of work, counted at Node's HTTP client (diagnostics channel),
 * so a built bundle's calls count like the raw SDK's: each bundle has its own SDK copy, out of
 * reach of lib/db/client.ts's `ddbCalls`. Retries count as the round trips they are.
 */
import { channel } from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';

export interface RoundTrips {
  /** Requests by DynamoDB action (X-Amz-Target without its version prefix). */
  calls: Map<string, number>;
  /** Request body bytes, all calls: the same items read or written come to about the same. */
  bytes: number;
}

// Held here: a channel only weakly held can be collected with its subscribers (Node 20).
const requests = channel('http.client.request.start');

export async function countRoundTrips(work: () => Promise<unknown>): Promise<RoundTrips> {
  const seen: RoundTrips = { calls: new Map(), bytes: 0 };
  const onRequest = (message: unknown) => {
    const { request } = message as { request: ClientRequest };
    const action = String(request.getHeader('x-amz-target') ?? 'other').replace(/^DynamoDB_\d+\./, '');
    seen.calls.set(action, (seen.calls.get(action) ?? 0) + 1);
    seen.bytes += Number(request.getHeader('content-length') ?? 0);
  };
  requests.subscribe(onRequest);
  try {
    await work();
  } finally {
    requests.unsubscribe(onRequest);
  }
  return seen;
}

/** e.g. `3 (BatchGetItem, TransactWriteItems, UpdateItem)`, actions sorted. */
export const describeRoundTrips = ({ calls }: RoundTrips) => {
  const total = [...calls.values()].reduce((sum, n) => sum + n, 0);
  return `${total} (${[...calls]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([action, n]) => (n > 1 ? `${n} ${action}` : action))
    .join(', ')})`;
};
