import { logger } from '../log';
import { runAsFunction } from './local-runtime';

/**
 * A scheduled worker as the local runtime runs it: `run` as function `name` (its role checked),
 * one run at a time, the next starting `everyMs` after the previous one ended; a failed run is
 * logged and the schedule goes on, as the next minute's invocation would on AWS.
 */
export function repeatAsFunction<T>(
  name: string,
  everyMs: number,
  run: () => Promise<T>,
  onResult?: (result: T) => void,
): { stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = runAsFunction(name, run)
        .then((result) => onResult?.(result))
        .catch((error) => logger.error('scheduled run failed', { worker: name, error: (error as Error).name }))
        .finally(schedule);
    }, everyMs);
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
