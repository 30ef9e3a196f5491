import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { secretKeys } from './named-secret';

/**
 * Sealed tokens (docs/decisions/0007-sealed-cursors.md): AES-256-GCM under the `cursor` secret's
 * keys, opaque to callers, any change failing authentication. Each is bound, as additional data,
 * to a purpose and the ids it was handed out for (a cursor to its practice, list and filters; a
 * manage token to its practice and appointment), and carries its expiry inside the ciphertext.
 *
 * Layout (base64url): version (1 byte) | IV (12) | ciphertext | tag (16). Random 96-bit IVs: a key
 * should seal fewer than 2^32 tokens (NIST SP 800-38D); rotating the secret resets the count.
 */
const FORMAT_VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

const boundTo = (purpose: string, bindings: readonly string[]) =>
  Buffer.from(JSON.stringify([purpose, FORMAT_VERSION, ...bindings]));

/** Seals `payload` (any JSON) for this purpose and these ids, with the current key, until `expiresAt` (epoch seconds). */
export function seal(purpose: string, bindings: readonly string[], payload: unknown, expiresAt: number): string {
  const [key] = secretKeys('cursor');
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(boundTo(purpose, bindings));
  const sealed = Buffer.concat([
    cipher.update(JSON.stringify({ exp: expiresAt, at: payload }), 'utf8'),
    cipher.final(),
  ]);
  return Buffer.concat([Buffer.from([FORMAT_VERSION]), iv, sealed, cipher.getAuthTag()]).toString('base64url');
}

/** Only the canonical encoding: otherwise a changed padding character could decode to the same bytes. */
function decodeExact(text: string): Buffer | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return null;
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : null;
}

function tryOpen(key: Buffer, aad: Buffer, iv: Buffer, ciphertext: Buffer, tag: Buffer): string | null {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(aad);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

export type Opened = { ok: true; payload: unknown } | { ok: false; reason: 'invalid' | 'expired' };

/**
 * What a token sealed for this purpose and these ids holds. Every key of the secret is tried
 * (current first), so tokens handed out before a rotation keep working while the previous secret
 * is still listed.
 */
export function open(purpose: string, bindings: readonly string[], text: string, nowSeconds: number): Opened {
  const bytes = decodeExact(text);
  if (!bytes || bytes.length <= 1 + IV_BYTES + TAG_BYTES || bytes[0] !== FORMAT_VERSION)
    return { ok: false, reason: 'invalid' };
  const iv = bytes.subarray(1, 1 + IV_BYTES);
  const ciphertext = bytes.subarray(1 + IV_BYTES, bytes.length - TAG_BYTES);
  const tag = bytes.subarray(bytes.length - TAG_BYTES);
  const aad = boundTo(purpose, bindings);
  let plaintext: string | null = null;
  for (const key of secretKeys('cursor')) {
    plaintext = tryOpen(key, aad, iv, ciphertext, tag);
    if (plaintext !== null) break;
  }
  if (plaintext === null) return { ok: false, reason: 'invalid' };
  let sealed: { exp?: unknown; at?: unknown };
  try {
    sealed = JSON.parse(plaintext);
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (typeof sealed.exp !== 'number' || nowSeconds >= sealed.exp) return { ok: false, reason: 'expired' };
  return { ok: true, payload: sealed.at };
}
