import { Logger } from '@aws-lambda-powertools/logger';

/**
 * One structured logger per process. What we log: operation, status, error code, ids, timings.
 * Never bodies, tokens, secrets or client contact details.
 */
export const logger = new Logger({
  serviceName: 'medspa-api',
  logLevel: (process.env.LOG_LEVEL as 'INFO' | undefined) ?? 'INFO',
});
