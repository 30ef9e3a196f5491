/**
 * Split by job into ./item.ts, ./update.ts, ./query.ts and ./batch.ts. Only modules being changed
 * on other branches still import from here (codecs.ts, report-aggregates.ts, lib/webhooks/jobs.ts);
 * once they import from those modules, this file goes.
 */
export { batchGetKeys, itemId } from './batch';
export { fromItem } from './item';
export { queryAll } from './query';
