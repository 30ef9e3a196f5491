/**
 * A recording proxy in front of DynamoDB Local: what a function's first invocation asks of
 * DynamoDB, call by call, with which calls were in flight together. The cold bench replays the
 * record with the bare SDK (./cold-floor-calls.ts): the floor of that function's own calls.
 */
import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedCall {
  /** The operation, e.g. `GetItem` (from X-Amz-Target). */
  operation: string;
  /** The request as sent (DynamoDB JSON, already marshalled). */
  input: Record<string, unknown>;
  /** Calls with the same step were in flight together; steps run in order. */
  step: number;
}

/** A request's or answer's whole body. */
export const bodyOf = (message: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    message.on('data', (chunk: Buffer) => chunks.push(chunk));
    message.on('end', () => resolve(Buffer.concat(chunks)));
    message.on('error', reject);
  });

export async function startDdbRecorder(target: string) {
  const upstream = new URL(target);
  let calls: Array<{ operation: string; input: Record<string, unknown>; started: number; ended: number }> = [];
  const server = createServer(async (req, res) => {
    const body = await bodyOf(req);
    const started = performance.now();
    const forwarded = request(
      { hostname: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
      async (answer) => {
        const answerBody = await bodyOf(answer);
        const operation =
          String(req.headers['x-amz-target'] ?? '')
            .split('.')
            .pop() ?? '';
        calls.push({ operation, input: JSON.parse(body.toString('utf8') || '{}'), started, ended: performance.now() });
        res.writeHead(answer.statusCode ?? 500, answer.headers);
        res.end(answerBody);
      },
    );
    forwarded.on('error', (error) => res.destroy(error));
    forwarded.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** The calls since the last take, in start order, grouped into steps by overlap. */
    take(): RecordedCall[] {
      const taken = [...calls].sort((a, b) => a.started - b.started);
      calls = [];
      let step = 0;
      let stepEnds = -Infinity;
      return taken.map((call) => {
        if (call.started >= stepEnds) step += 1;
        stepEnds = Math.max(call.started >= stepEnds ? call.ended : stepEnds, call.ended);
        return { operation: call.operation, input: call.input, step };
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
