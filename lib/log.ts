import { Logger } from '@aws-lambda-powertools/logger';
import { config } from './config';

/**
 * One structured logger per process. What we log: operation, status, error code, ids, timings.
 * Never bodies, tokens, secrets or client contact details.
 */
export const logger = new Logger({ serviceName: 'medspa-api', logLevel: config().LOG_LEVEL });
