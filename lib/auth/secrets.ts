import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { config } from '../config';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options: object) => Promise<Buffer>;
const KEY_LENGTH = 32;

export const newClientSecret = () => `cs_${randomBytes(32).toString('base64url')}`;

/** A slow, salted hash (scrypt) stored as `scrypt$N$salt$hash`; the secret itself is never stored. */
export async function hashSecret(secret: string): Promise<string> {
  const cost = config().SECRET_HASH_COST;
  const salt = randomBytes(16);
  const hash = await scryptAsync(secret, salt, KEY_LENGTH, { N: cost, r: 8, p: 1, maxmem: 256 * cost * 8 * 2 });
  return `scrypt$${cost}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, costText, saltText, hashText] = stored.split('$');
  if (scheme !== 'scrypt' || !saltText || !hashText) return false;
  const cost = Number(costText);
  const expected = Buffer.from(hashText, 'base64url');
  const actual = await scryptAsync(secret, Buffer.from(saltText, 'base64url'), expected.length, {
    N: cost, r: 8, p: 1, maxmem: 256 * cost * 8 * 2,
  });
  return timingSafeEqual(actual, expected);
}

/** A secret-shaped string to hash when the client_id is unknown, so timing does not reveal which ids exist. */
export const DUMMY_HASH_INPUT = 'cs_unknown-client';
