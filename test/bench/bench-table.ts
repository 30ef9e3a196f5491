/**
 * What every bench script does first: a quiet environment with its own data directory and table
 * name (set before the modules that read it are loaded: call it before importing them), then its
 * own DynamoDB Local with that table. No module of ours is imported at this module's top.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DynamoLocal } from '../../infra/local/dynamo';

/** A fresh temporary directory, removed when the process exits (unless `keep`: a profile run reads it again). */
export function scratchDir(prefix: string, keep = false): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (!keep) process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function benchEnvironment(table: string): void {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  process.env.LOG_LEVEL = 'SILENT';
  process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
  process.env.DATA_DIR = scratchDir(`medspa-${table}-`);
  process.env.TABLE_NAME = table;
}

/** Starts DynamoDB Local, points the data layer at it and creates the table (with its stream). */
export async function startBenchTable(): Promise<DynamoLocal> {
  const { startDynamoLocal } = await import('../../infra/local/dynamo');
  const { resetConfig } = await import('../../lib/config');
  const { ensureTable } = await import('../../lib/db/bootstrap');
  const { resetDdb } = await import('../../lib/db/client');
  const dynamo = await startDynamoLocal();
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  resetConfig();
  resetDdb();
  await ensureTable();
  return dynamo;
}
