import { Logger } from '@aws-lambda-powertools/logger';
import { LogFormatter, LogItem } from '@aws-lambda-powertools/logger';
import { config } from './config';

/**
 * On Lambda (which names its log format to the function): CloudWatch stamps every line with its
 * time itself, and each function's log group names its operation.
 */
export const ON_LAMBDA = process.env.AWS_LAMBDA_LOG_FORMAT !== undefined;

/** The invocation's trace, when X-Ray records it (a GET passes through unsampled: its id leads nowhere). */
const sampledTraceId = (traceId: string | undefined) =>
  traceId && process.env._X_AMZN_TRACE_ID?.includes('Sampled=1') ? traceId : undefined;

/**
 * Powertools' lines without what every line repeats for nothing: the service name (the log group
 * names the function), the sampling rate (always 0), on Lambda the timestamp (the platform's own)
 * and the trace id of an invocation X-Ray does not record. CloudWatch bills every byte ingested.
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
        timestamp: ON_LAMBDA ? undefined : this.formatTimestamp(attributes.timestamp),
        xray_trace_id: sampledTraceId(attributes.xRayTraceId),
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
