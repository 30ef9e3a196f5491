import { createServer, type IncomingMessage, type Server } from 'node:http';
import { MAX_BODY_BYTES } from '../../lib/http/input';
import { dispatch } from './router';

/**
 * Keeps at most one byte past the limit: enough for the handler to answer 413 without buffering
 * more. The rest is drained, not left unread: leaving the loop early destroys the request and its
 * socket, so the client would get a reset (and the handler a null socket) instead of the 413.
 */
async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    if (size <= MAX_BODY_BYTES) chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES + 1).toString('utf8');
}

/** A plain HTTP shell around the router: every route of the route table, on one port. */
export function createLocalServer(): Server {
  return createServer(async (request, response) => {
    try {
      const result = await dispatch({
        method: request.method ?? 'GET',
        url: request.url ?? '/',
        headers: request.headers,
        body: await readBody(request),
        sourceIp: request.socket.remoteAddress,
      });
      response.writeHead(result.status, result.headers);
      response.end(result.body);
    } catch (error) {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ success: false, error: { code: 'INTERNAL_ERROR', message: 'Something went wrong on our side' } }));
      console.error('local server error', (error as Error).message);
    }
  });
}

export function listen(server: Server, port: number, host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve((server.address() as { port: number }).port));
  });
}
