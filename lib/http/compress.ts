import { gzipSync } from 'node:zlib';
import { acceptsGzip } from './prebuilt';
import { withVary, type ApiMiddleware } from './types';

/**
 * Below this a JSON answer is sent as it is: gzip's header and the base64 of a binary Lambda
 * answer eat most of what it would save.
 */
export const COMPRESS_FROM_BYTES = 1024;

/**
 * Answers of 1 KB and more go out gzipped to a client that takes gzip (API Gateway HTTP APIs
 * compress nothing themselves): a list page of 27 KB is 5 KB, for about 0.15 ms of CPU here. It
 * runs after idempotency and rate limits have seen the answer, so a stored answer is the plain
 * one and a replay is compressed for the client asking then. A prebuilt answer is compressed
 * already (./prebuilt.ts).
 */
export const compress = (): ApiMiddleware => ({
  after: (request) => {
    const answer = request.response;
    if (!answer || answer.isBase64Encoded || typeof answer.body !== 'string') return;
    if (answer.body.length < COMPRESS_FROM_BYTES || answer.headers?.['content-encoding']) return;
    const headers = withVary(answer.headers as Record<string, string>, 'Accept-Encoding');
    if (!acceptsGzip(request.event.headers?.['accept-encoding'])) {
      answer.headers = headers;
      return;
    }
    answer.body = gzipSync(answer.body).toString('base64');
    answer.isBase64Encoded = true;
    answer.headers = { ...headers, 'content-encoding': 'gzip' };
  },
});
