import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { resetConfig } from '../../lib/config';
import { MAX_BODY_BYTES } from '../../lib/http/input';
import { dispatch, type LocalRequest } from './router';
import { logRefusal, MAX_HEADER_BYTES, parserRefusal, rawHttpResponse, refusal, type ParserError } from './transport';

/**
 * Keeps at most one byte past the limit: enough for the handler to answer 413 without buffering
 * more. The rest is drained, not left unread: leaving the loop early destroys the request and its
 * socket, so the client would get a reset (and the handler a null socket) instead of the 413.
 * Bytes, not text: a binary body reaches the function base64-encoded, exactly as sent.
 */
async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    if (size <= MAX_BODY_BYTES) chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES + 1);
}

/**
 * The request as the router takes it. Headers from `rawHeaders`: Node's `headers` keeps only the
 * first of a repeated Authorization, Content-Type, Host... and joins others with ', ', where API
 * Gateway passes every line on (the router joins them as it does).
 */
export async function localRequestOf(request: IncomingMessage): Promise<LocalRequest> {
  const sourceIp = request.socket.remoteAddress;
  const headers = new Map<string, string[]>();
  for (let index = 0; index < request.rawHeaders.length; index += 2) {
    const name = request.rawHeaders[index].toLowerCase();
    headers.set(name, [...(headers.get(name) ?? []), request.rawHeaders[index + 1]]);
  }
  return {
    method: request.method ?? 'GET',
    url: request.url ?? '/',
    headers: Object.fromEntries(headers),
    body: await readBody(request),
    sourceIp,
  };
}

/**
 * A request Node's parser refused (oversized headers or request line, a control byte in a header,
 * a malformed request line) never becomes a request: answer it on the raw socket in the contract's
 * envelope, unless a response on this connection has already started (writing then would corrupt
 * it) or the peer is gone.
 */
function answerClientError(error: ParserError, duplex: Duplex): void {
  // An http.Server's connections are net.Sockets; Node types the event's argument as their base.
  const socket = duplex as Socket & { _httpMessage?: { headersSent?: boolean } };
  const inFlight = socket._httpMessage;
  const response = parserRefusal(error, randomUUID());
  if (!response || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  logRefusal(response, { reason: error.code });
  // Half-close, so the answer is not lost to a reset while the client is still sending; a client
  // that never closes its side is dropped after a while.
  socket.end(rawHttpResponse(response));
  socket.setTimeout(5_000, () => socket.destroy());
}

/** A plain HTTP shell around the router: every route of the route table, on one port. */
export function createLocalServer(): Server {
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, async (request, response) => {
    try {
      const result = await dispatch(await localRequestOf(request));
      response.writeHead(result.status, result.headers);
      response.end(result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
    } catch (error) {
      const failure = refusal('INTERNAL_ERROR', randomUUID());
      response.writeHead(failure.status, failure.headers);
      response.end(failure.body);
      console.error('local server error', (error as Error).message);
    }
  });
  server.on('clientError', answerClientError);
  return server;
}

/** An API_BASE_URL the operator set (a tunnel or proxy in front of the server) is kept. */
const operatorBaseUrl = process.env.API_BASE_URL;

/**
 * Listens, and makes the address listened on the handlers' API_BASE_URL (lib/config.ts), as the
 * stage gives each Lambda its own: what `GET /book.js` names, whatever Host a request carries.
 */
export function listen(server: Server, port: number, host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const bound = (server.address() as { port: number }).port;
      process.env.API_BASE_URL = operatorBaseUrl ?? `http://${host.includes(':') ? `[${host}]` : host}:${bound}`;
      resetConfig();
      resolve(bound);
    });
  });
}
