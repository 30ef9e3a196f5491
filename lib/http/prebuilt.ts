import { gzipSync } from 'node:zlib';
import { jsonText, withVary, type ApiResponse } from './types';

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
 * A `prebuilt` row's answer (route.ts): JSON text made at build time, sent as it is, or gzipped
 * for a client that takes gzip. API Gateway HTTP APIs compress nothing themselves, and the OpenAPI
 * document is 1.19 MB of JSON, 79 KB gzipped. The gzip is made on the first request that takes
 * it and kept with the text (about 10 ms for the document in a fresh container). It makes its own
 * Lambda answer, so functions that answer no prebuilt body do not carry this module.
 */
export class PrebuiltAnswer {
  private gzipped?: string;

  constructor(readonly text: string) {}

  /** The Lambda answer; caches are told it varies by `Accept-Encoding` either way. */
  respond(status: number, headers: Record<string, string> = {}, acceptEncoding?: string): ApiResponse {
    const varied = withVary(headers, 'Accept-Encoding');
    if (!acceptsGzip(acceptEncoding)) return jsonText(status, this.text, varied);
    // Base64: how a Lambda answers binary; API Gateway sends the bytes.
    this.gzipped ??= gzipSync(this.text).toString('base64');
    return { ...jsonText(status, this.gzipped, { ...varied, 'content-encoding': 'gzip' }), isBase64Encoded: true };
  }
}
