import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

// Not util.promisify: importing node:util loads its MIME and argument parsers on the token
// function's cold start, for a check only credentials from before the SHA-256 switch reach.
const scryptAsync = (password: string, salt: Buffer, keylen: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scrypt(password, salt, keylen, options, (error, key) => (error ? reject(error) : resolve(key))),
  );

/** 256 random bits: never chosen by a person, so there is no dictionary to try against its hash. */
export const newClientSecret = () => `cs_${randomBytes(32).toString('base64url')}`;

const sha256 = (secret: string) => createHash('sha256').update(secret).digest();

/**
 * A secret's stored form, `sha256$hash`; the secret itself is never stored. A slow hash (scrypt,
 * 45 ms of CPU per check here, about 135 ms on Lambda's share of a vCPU) only slows guessing where
 * people choose secrets; ours are 256 random bits, as many guesses as SHA-256 takes to invert.
 */
export function hashSecret(secret: string): string {
  return `sha256$${sha256(secret).toString('base64url')}`;
}

/** Constant-time against `sha256$hash`, or a stored `scrypt$N$salt$hash` (credentials made before the switch). */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, ...parts] = stored.split('$');
  if (scheme === 'sha256' && parts.length === 1)
    return constantTimeEqual(sha256(secret), Buffer.from(parts[0]!, 'base64url'));
  const [costText, saltText, hashText] = parts;
  if (scheme !== 'scrypt' || !saltText || !hashText) return false;
  const cost = Number(costText);
  const expected = Buffer.from(hashText, 'base64url');
  const actual = await scryptAsync(secret, Buffer.from(saltText, 'base64url'), expected.length, {
    N: cost,
    r: 8,
    p: 1,
    maxmem: 256 * cost * 8 * 2,
  });
  return constantTimeEqual(actual, expected);
}

const constantTimeEqual = (actual: Buffer, expected: Buffer) =>
  actual.length === expected.length && timingSafeEqual(actual, expected);

/** A secret-shaped string to hash when the client_id is unknown, so timing does not reveal which ids exist. */
export const DUMMY_HASH_INPUT = 'cs_unknown-client';
