/**
 * A create through the local server with the least client there is: one node:http request on a
 * kept-alive connection, its JSON answer parsed. What the server and its request chain add to the
 * DynamoDB calls, without the typed client's own CPU (undici's fetch, openapi-fetch and its
 * middlewares: about 1 ms a call here, on the integrator's machine, not on Lambda's).
 */
import { Agent, request } from 'node:http';

/** `headers` go on every request (the credential), `more` on one (an Idempotency-Key). */
export function barePost(
  baseUrl: string,
  headers: Record<string, string>,
): (path: string, body: unknown, more?: Record<string, string>) => Promise<unknown> {
  const { hostname, port } = new URL(baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return (path, body, more = {}) =>
    new Promise((resolve, reject) => {
      const text = JSON.stringify(body);
      const sent = request(
        {
          hostname,
          port,
          path,
          method: 'POST',
          agent,
          headers: {
            ...headers,
            ...more,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(text),
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const answer = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
            if ((response.statusCode ?? 500) >= 400)
              reject(new Error(`${path}: ${response.statusCode} ${JSON.stringify(answer)}`));
            else resolve(answer);
          });
          response.on('error', reject);
        },
      );
      sent.on('error', reject);
      sent.end(text);
    });
}
