import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { bookingPageResponse } from '../../lib/booking-page/page';
import { withRequestId } from '../../lib/http/static-answer';
import { framingOriginsOf } from '../../lib/use-cases/publishable-keys';

export const handler = async (event: APIGatewayProxyEventV2) => {
  const key = event.queryStringParameters?.key ?? '';
  return withRequestId(event, bookingPageResponse({ key, allowedOrigins: await framingOriginsOf(key) }));
};
