import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { authorizeStandIn, currentFunction } from '../aws/local-runtime';
import { BoundedCache } from '../cache';

/** Secrets the service keeps for itself (not client secrets): pagination cursors, webhook signing secrets at rest. */
export type SecretName = 'cursor' | 'webhook';

/** Locally (and outside any function): the value itself, else one generated under DATA_DIR. */
const envName = (name: SecretName) => `${name.toUpperCase()}_SECRET`;

/** On AWS: the ARN of the stage's Secrets Manager secret, set (with the grant to read it) only for the functions that read it. */
export const secretArnEnv = (name: SecretName) => `${name.toUpperCase()}_SECRET_ARN`;

/** How long a container keeps a value it read: a rotated value ("new,old") reaches every container within this. */
export const SECRET_MAX_AGE_SECONDS = 5 * 60;

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

/** The local values, read once (a test changing env or DATA_DIR calls `resetSecretKeys`). */
const localValues = new Map<SecretName, string>();
function localValue(name: SecretName): string {
  let value = localValues.get(name);
  if (value === undefined) {
    value = process.env[envName(name)] || fromDataDir(name);
    localValues.set(name, value);
  }
  return value;
}

const keysOf = (raw: string) =>
  raw
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean)
    .map((value) => createHash('sha256').update(value).digest());

/**
 * Keys read, per secret, in the per-container cache, which keeps each function's own locally
 * (lib/cache.ts): a function that never read a secret has none, whatever the others read.
 */
const loaded = new BoundedCache<SecretName, { raw: string; keys: Buffer[] }>({ max: 8 });

/** On AWS, inside a function; locally, inside `runAsFunction`: where only `loadSecretKeys` may read a secret. */
const insideFunction = (scope: string | undefined) =>
  scope !== undefined || Boolean(process.env.AWS_LAMBDA_FUNCTION_NAME);

async function readSecret(name: SecretName): Promise<string> {
  const arn = process.env[secretArnEnv(name)];
  if (arn) {
    // Imported at the first read: only the functions given a secret load the Secrets Manager client.
    const { getSecret } = await import('@aws-lambda-powertools/parameters/secrets');
    const value = await getSecret(arn, { maxAge: SECRET_MAX_AGE_SECONDS });
    if (typeof value !== 'string' || !value) throw new Error(`${secretArnEnv(name)}: the secret has no string value`);
    return value;
  }
  if (process.env.AWS_LAMBDA_FUNCTION_NAME) {
    throw new Error(
      `${secretArnEnv(name)} is not set: the stage gives it only to the functions that read the ${name} secret`,
    );
  }
  // Locally the DATA_DIR value (or the env's) stands in, read as the function would read the secret:
  // its role must allow secretsmanager:GetSecretValue on that secret (and its key through Secrets Manager).
  await authorizeStandIn({ action: 'secretsmanager:GetSecretValue', resource: `secret:${name}` });
  return localValue(name);
}

/**
 * Reads a named secret for the current function at its first use and keeps it for
 * `SECRET_MAX_AGE_SECONDS` (Powertools Parameters on AWS: the stage's Secrets Manager secret, named
 * by `<NAME>_SECRET_ARN`; locally the DATA_DIR stand-in, after the same IAM check). What
 * `secretKeys` then hands out synchronously. The HTTP chain calls it for the secrets a route row
 * names (lib/http/handler.ts), the workers where they use one.
 */
export async function loadSecretKeys(name: SecretName): Promise<Buffer[]> {
  const raw = await readSecret(name);
  const known = loaded.get(name);
  if (known?.raw === raw) return known.keys;
  const keys = keysOf(raw);
  if (keys.length === 0) throw new Error(`The ${name} secret is empty`);
  loaded.set(name, { raw, keys });
  return keys;
}

/**
 * 32-byte keys derived (SHA-256) from a named secret, current first. The secret holds one or more
 * comma-separated values; the values after the first are previous ones, still accepted for
 * reading, so a rotation breaks nothing already handed out. Inside a function they are the keys
 * `loadSecretKeys` read (a function that did not is refused, on AWS and locally alike); outside
 * any function (tests, the seed, the admin command, all local) the local value directly.
 */
export function secretKeys(name: SecretName): Buffer[] {
  const scope = currentFunction();
  const known = loaded.get(name);
  if (known) return known.keys;
  if (insideFunction(scope)) {
    throw new Error(
      `The ${name} secret was not read${scope ? ` by function "${scope}"` : ''}: loadSecretKeys('${name}') first, in a function the stage gives ${secretArnEnv(name)}`,
    );
  }
  const keys = keysOf(localValue(name));
  loaded.set(name, { raw: '', keys });
  return keys;
}

/** Tests and the local server change env or DATA_DIR before use; this lets them re-read it. */
export const resetSecretKeys = () => {
  loaded.clear();
  localValues.clear();
};
