import { Logger } from '@aws-lambda-powertools/logger';
import { LogFormatter, LogItem } from '@aws-lambda-powertools/logger';
import { config } from './config';

/**
 * Powertools' lines without what every line repeats for nothing: the service name (the log group
 * names the function) and the sampling rate (always 0). CloudWatch bills every byte ingested.
 */
class LeanLogFormatter extends LogFormatter {
  formatAttributes(
    attributes: Parameters<LogFormatter['formatAttributes']>[0],
    additional: Parameters<LogFormatter['formatAttributes']>[1],
  ): LogItem {
    return new LogItem({
      attributes: {
        level: attributes.logLevel,
        message: attributes.message,
        timestamp: this.formatTimestamp(attributes.timestamp),
        xray_trace_id: attributes.xRayTraceId,
      },
    }).addAttributes(additional);
  }
}

/**
 * One structured logger per process. What we log: operation, status, error code, ids, timings.
 * Never bodies, tokens, secrets or client contact details.
 */
export const logger = new Logger({
  serviceName: 'medspa-api',
  logLevel: config().LOG_LEVEL,
  logFormatter: new LeanLogFormatter(),
});
