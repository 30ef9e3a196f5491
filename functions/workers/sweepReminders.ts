import { clock } from '../../lib/clock';
import { logger } from '../../lib/log';
import { sweepReminders } from '../../lib/use-cases/reminders';

/** Scheduled every minute: writes the reminders that fell due (lib/use-cases/reminders.ts). */
export const handler = async () => {
  const result = await sweepReminders(clock().now());
  logger.info('reminders swept', { ...result });
  return result;
};
