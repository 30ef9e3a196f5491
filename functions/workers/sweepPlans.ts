import { clock } from '../../lib/clock';
import { logger } from '../../lib/log';
import { sweepPlans } from '../../lib/use-cases/plan-renewals';

/** Scheduled every hour: membership renewals, ends of terms and package expiry (lib/use-cases/plan-renewals.ts). */
export const handler = async () => {
  const result = await sweepPlans(clock().now());
  logger.info('plans swept', { ...result });
  return result;
};
