import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/**
 * A plain (non-middy) handler's answer with the request id every answer carries (API reference,
 * conventions); to a HEAD (a route with `head`), the same answer without its body.
 */
export const withRequestId = <R extends { headers?: Record<string, string | number | boolean>; body?: string }>(
  event: APIGatewayProxyEventV2,
  answer: R,
): R => ({
  ...answer,
  headers: { ...answer.headers, 'x-request-id': event.requestContext?.requestId ?? '' },
  ...(event.requestContext?.http?.method === 'HEAD' ? { body: '' } : {}),
});
