import { STATUS_CODES } from 'node:http';
import { AppError, type ErrorCode, type FieldProblem } from '../../lib/errors';
import { logger } from '../../lib/log';

/** What the local server answers (the router's result, or a transport-level refusal). */
export interface LocalResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The body is bytes in base64 (a gzipped answer): sent decoded, as API Gateway sends it. */
  isBase64Encoded?: boolean;
}

/**
 * What the local server refuses before any handler runs, answered in the contract's envelope.
 * On AWS, API Gateway refuses these itself (docs/guide/choices.md, "Transport refusals").
 */

/** The request target (path and query) of the request line. Longer: 414 URI_TOO_LONG. */
export const MAX_REQUEST_TARGET_BYTES = 8 * 1024;
/**
 * Node's `maxHeaderSize`: request line plus headers. Longer: 431 HEADERS_TOO_LARGE. Set to API
 * Gateway HTTP API's quota (10240 bytes of request line and header values), so a request that
 * works locally is not refused for size on AWS.
 */
export const MAX_HEADER_BYTES = 10 * 1024;

const MESSAGES: Partial<Record<ErrorCode, string>> = {
  URI_TOO_LONG: `The request target is longer than ${MAX_REQUEST_TARGET_BYTES} bytes`,
  HEADERS_TOO_LARGE: `The request line and headers are larger than ${MAX_HEADER_BYTES} bytes`,
  VALIDATION_ERROR: 'The request is not valid HTTP/1.1',
};

/** The envelope a handler would answer with, for a request that never reached one. */
export function refusal(code: ErrorCode, requestId: string, details?: FieldProblem[]): LocalResponse {
  const error = new AppError(code, MESSAGES[code], { details });
  return {
    status: error.status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'x-request-id': requestId,
    },
    body: JSON.stringify({
      success: false,
      error: { code: error.code, message: error.message, ...(details ? { details } : {}), request_id: requestId },
    }),
  };
}

/** The log line of a refusal: ids, codes and sizes only, never a header value or the URL. */
export function logRefusal(response: LocalResponse, facts: Record<string, string | number | undefined>): void {
  const { error } = JSON.parse(response.body) as { error: { code: string; request_id: string } };
  logger.warn('request refused before routing', {
    requestId: error.request_id,
    status: response.status,
    code: error.code,
    ...facts,
  });
}

/** A complete HTTP/1.1 response for writing straight to a socket; the connection closes after it. */
export function rawHttpResponse(response: LocalResponse): string {
  const headers = {
    ...response.headers,
    'content-length': String(Buffer.byteLength(response.body)),
    connection: 'close',
  };
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}\r\n${head}\r\n${response.body}`;
}

/**
 * The overflow is reported for the packet being parsed when it happened. When that packet starts
 * a request (the usual case on loopback, where a request arrives in one read) and has no line end
 * within the request-target limit, the request line itself is what overflowed: 414, not 431. A
 * request line split over many reads (slow or remote clients) is answered 431.
 */
function requestLineOverflowed(packet: Buffer | undefined): boolean {
  if (!packet || !/^[A-Z]+ /.test(packet.subarray(0, 16).toString('latin1'))) return false;
  const lineEnd = packet.indexOf(0x0a);
  return lineEnd === -1 || lineEnd > MAX_REQUEST_TARGET_BYTES;
}

/** Which part of the request a parser error code (llhttp's HPE_*) is about, for `details`. */
function partOf(parserCode: string): FieldProblem {
  if (/HEADER|CONTENT_LENGTH|TRANSFER_ENCODING|CR_EXPECTED|LF_EXPECTED/.test(parserCode)) {
    return { path: 'headers', message: 'a malformed header, or a byte not allowed in a header name or value' };
  }
  if (/METHOD|URL|VERSION|CONSTANT/.test(parserCode))
    return { path: 'request_line', message: 'a malformed request line' };
  return { path: 'request', message: 'not valid HTTP/1.1' };
}

export type ParserError = Error & { code?: string; rawPacket?: Buffer };

/**
 * The answer to a request Node's HTTP parser refused ('clientError'), or null when there is nobody
 * to answer (the peer reset, or a timeout: the socket is just closed).
 */
export function parserRefusal(error: ParserError, requestId: string): LocalResponse | null {
  const parserCode = error.code ?? 'UNKNOWN';
  if (parserCode === 'ECONNRESET' || parserCode === 'ERR_HTTP_REQUEST_TIMEOUT') return null;
  if (parserCode === 'HPE_HEADER_OVERFLOW')
    return refusal(requestLineOverflowed(error.rawPacket) ? 'URI_TOO_LONG' : 'HEADERS_TOO_LARGE', requestId);
  return refusal('VALIDATION_ERROR', requestId, [partOf(parserCode)]);
}
