import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { bookingAppScriptResponse } from '../../lib/booking-page/page';
import { withRequestId } from '../../lib/http/static-answer';

export const handler = async (event: APIGatewayProxyEventV2) => withRequestId(event, bookingAppScriptResponse());
