import type middy from '@middy/core';
import jsonBodyParser from '@middy/http-json-body-parser';
import urlencodeBodyParser from '@middy/http-urlencode-body-parser';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { AppError } from '../errors';
import type { RouteDef } from './route';

export const MAX_BODY_BYTES = 256 * 1024;

// The contract is JSON-only, so a missing or odd Content-Type is still parsed as JSON.
const json = jsonBodyParser({ disableContentTypeCheck: true } as never);
const form = urlencodeBodyParser({ disableContentTypeError: true });

/**
 * Size limit first (413), then JSON (or the OAuth form where the route takes it) through middy's
 * parsers, their failures mapped to the contract's INVALID_JSON. An empty body parses to undefined.
 */
export const parseBody = (route: RouteDef): middy.MiddlewareObj<APIGatewayProxyEventV2> => ({
  before: async (request) => {
    const { event } = request;
    if (route.fallback || event.body === undefined || event.body === null || event.body === '') {
      (event as { body?: unknown }).body = undefined;
      return;
    }
    const bytes = event.isBase64Encoded ? Buffer.from(event.body, 'base64').length : Buffer.byteLength(event.body);
    if (bytes > MAX_BODY_BYTES) throw new AppError('PAYLOAD_TOO_LARGE');
    const contentType = event.headers?.['content-type'] ?? '';
    if (/^application\/x-www-form-urlencoded/i.test(contentType)) {
      if (!route.acceptsForm) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send JSON (Content-Type: application/json)');
      await form.before!(request as never);
      return;
    }
    try {
      await json.before!(request as never);
    } catch {
      throw new AppError('INVALID_JSON');
    }
  },
});
