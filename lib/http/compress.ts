import { gzipSync } from 'node:zlib';
import { withVary, type ApiMiddleware } from './types';

/** Whether an `Accept-Encoding` takes gzip (RFC 9110 12.5.3: `gzip`, `x-gzip` or `*`, at a weight above 0). */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  const weights = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').toLowerCase().split(',')) {
    const [coding, ...params] = part.split(';').map((item) => item.trim());
    const weight = params.find((param) => param.startsWith('q='));
    if (coding) weights.set(coding, weight ? Number(weight.slice(2)) : 1);
  }
  const weight = weights.get('gzip') ?? weights.get('x-gzip') ?? weights.get('*');
  return weight !== undefined && weight > 0;
}

/**
 * Below this a JSON answer is sent as it is: gzip's header and the base64 of a binary Lambda
 * answer eat most of what it would save.
 */
const COMPRESS_FROM_BYTES = 1024;

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
