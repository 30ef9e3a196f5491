import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { bookJsResponse } from '../../lib/booking-page/page';
import { serverUrlOf } from '../../lib/http/server-url';
import { withRequestId } from '../../lib/http/static-answer';

/** The base is the host the script was loaded from (API Gateway's own domain, or the local server). */
export const handler = async (event: APIGatewayProxyEventV2) =>
  withRequestId(event, bookJsResponse(serverUrlOf(event.headers ?? {}) ?? `https://${event.requestContext.domainName}`));
