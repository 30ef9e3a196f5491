import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/dynamo';
import { npmStart, processesUsing, stopAll, untilServing } from '../fixtures/npm-start';

/**
 * `npm start` as a process supervisor would run it (`npm start & ... kill $!`): a signal to the
 * npm process stops the API, the pipeline and DynamoDB Local, with a line in the log; a busy port
 * names PORT.
 */
afterEach(stopAll);

describe('npm start behaves like a server', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('%s to the npm process stops the API, the pipeline and DynamoDB Local, and says so', async (signal) => {
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
  });

  it('a port in use is named, with PORT as the way out, and nothing is left running', async () => {
    const port = await freePort();
    const busy: Server = createServer();
    await new Promise<void>((resolve) => busy.listen(port, '127.0.0.1', resolve));
    try {
      const server = npmStart(port);
      expect(await server.exited).toBe(1);
      expect(server.output()).toContain(`port ${port} is in use: set PORT`);
      expect(processesUsing(server.dataDir)).toBe('');
    } finally {
      busy.close();
    }
  });
});
