import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/** A plain (non-middy) handler's answer with the request id every answer carries (API reference, conventions). */
export const withRequestId = <R extends { headers?: Record<string, string | number | boolean> }>(event: APIGatewayProxyEventV2, answer: R): R => ({
  ...answer,
  headers: { ...answer.headers, 'x-request-id': event.requestContext?.requestId ?? '' },
});
