import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/dynamo';
import { npmStart, processesUsing, stopAll, untilServing } from '../fixtures/npm-start';

/**
 * `npm start` as a process supervisor would run it (`npm start & ... kill $!`): a signal to the
 * npm process stops the API, the pipeline and DynamoDB Local, with a line in the log; a busy port
 * names PORT at once. The two signal tests start a server each (own port, own folder) and run side
 * by side: a start is seconds of npm, tsx and the JVM. What a failed one leaves is killed at the
 * end (after each test would kill the other's server). The busy-port test, timed, runs alone.
 */
afterAll(stopAll);

describe('npm start behaves like a server', () => {
  it.concurrent.each(['SIGTERM', 'SIGINT'] as const)(
    '%s to the npm process stops the API, the pipeline and DynamoDB Local, and says so',
    async (signal) => {
      const port = await freePort();
      const server = npmStart(port);
      await untilServing(port, server);
      expect(processesUsing(server.dataDir)).not.toBe('');
      server.child.kill(signal);
      expect(await server.exited).toBe(0);
      expect(server.output()).toContain(`medspa-api: ${signal}; stopping`);
      expect(server.output()).toContain('medspa-api: stopped');
      await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
      expect(processesUsing(server.dataDir)).toBe('');
    },
  );

  it('a port in use fails at once, named with PORT as the way out, leaving nothing behind: no process, no DATA_DIR', async () => {
    const port = await freePort();
    const busy: Server = createServer();
    await new Promise<void>((resolve) => busy.listen(port, '127.0.0.1', resolve));
    try {
      const started = performance.now();
      const server = npmStart(port);
      expect(await server.exited).toBe(1);
      // Under 2 s on its own (0.6-1.7 s measured here, npm and tsx's loading most of it, at a load
      // average of 17 on 2 cores); the bound leaves room for a neighbour's npm start. It took 13-44 s.
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(server.output()).toContain(`port ${port} is in use: set PORT`);
      expect(existsSync(server.dataDir)).toBe(false);
      expect(processesUsing(server.dataDir)).toBe('');
    } finally {
      busy.close();
    }
  });
});
