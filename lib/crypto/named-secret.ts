import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { requireStageEnvironment } from '../aws/local-runtime';
import { BoundedCache } from '../cache';

/** Secrets the service keeps for itself (not client secrets): pagination cursors, webhook signing secrets at rest. */
export type SecretName = 'cursor' | 'webhook';

const envName = (name: SecretName) => `${name.toUpperCase()}_SECRET`;

function fromDataDir(name: SecretName): string {
  const dir = process.env.DATA_DIR ?? '.data';
  const file = join(dir, `${name}-secret`);
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dir, { recursive: true });
    try {
      writeFileSync(file, randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 });
    } catch {
      // Another process (server or admin command) wrote it first: use theirs.
    }
    return readFileSync(file, 'utf8').trim();
  }
}

const cache = new BoundedCache<SecretName, Buffer[]>({ max: 2 });

/**
 * 32-byte keys derived (SHA-256) from a named secret, current first. `CURSOR_SECRET` /
 * `WEBHOOK_SECRET` hold one or more comma-separated values (on AWS from a Secrets Manager secret
 * per stage); the values after the first are previous ones, still accepted for reading, so a
 * rotation breaks nothing already handed out. Unset: generated once under DATA_DIR, for the
 * functions the stage gives the variable to.
 */
export function secretKeys(name: SecretName): Buffer[] {
  // Locally the DATA_DIR value stands in only where the stage sets the variable, as on AWS.
  requireStageEnvironment(envName(name));
  let keys = cache.get(name);
  if (!keys) {
    const raw = process.env[envName(name)] || fromDataDir(name);
    keys = raw
      .split(',')
      .map((value) => value.trim())
      .filter(Boolean)
      .map((value) => createHash('sha256').update(value).digest());
    cache.set(name, keys);
  }
  return keys;
}

/** Tests and the local server change env or DATA_DIR before use; this lets them re-read it. */
export const resetSecretKeys = () => cache.clear();
