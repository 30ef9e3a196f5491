import { gzipSync } from 'node:zlib';
import { acceptsGzip } from './compress';
import { jsonText, withVary, type ApiResponse } from './types';

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
