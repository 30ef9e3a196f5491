import { clock } from '../../lib/clock';
import { logger } from '../../lib/log';
import { sweepWaitlist } from '../../lib/use-cases/waitlist-freed';

/** Scheduled every minute: expired offers move on, expired holds' time is offered, expired entries stored so (lib/use-cases/waitlist-freed.ts). */
export const handler = async () => {
  const result = await sweepWaitlist(clock().now());
  logger.info('waitlist swept', { ...result });
  return result;
};
