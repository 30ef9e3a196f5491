import { createServer } from 'node:net';

/** A busy port, named with PORT as the way out. */
export const portInUse = (port: number) =>
  new Error(`port ${port} is in use: set PORT to a free one (PORT=${port + 1} npm start)`);

/**
 * Resolves when `port` can be listened on (it is let go at once); a busy one rejects with
 * `portInUse`. Node built-ins only: `npm start` checks before loading anything heavy.
 */
export function assertPortFree(port: number, host = '127.0.0.1'): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? portInUse(port) : error),
    );
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}
