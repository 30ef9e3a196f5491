import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { bookJsResponse } from '../../lib/booking-page/page';
import { apiBaseUrl } from '../../lib/config';
import { withRequestId } from '../../lib/http/static-answer';

/** The API's configured base, never the request's Host: the script is cached publicly for 5 minutes. */
export const handler = async (event: APIGatewayProxyEventV2) => withRequestId(event, bookJsResponse(apiBaseUrl()));
