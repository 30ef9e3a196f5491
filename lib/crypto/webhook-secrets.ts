import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { secretKeys } from './named-secret';

/**
 * Webhook signing secrets: made here, shown to the caller once, and stored only as AES-256-GCM
 * ciphertext under the service's `webhook` key (lib/crypto/named-secret: current key first, older
 * ones still decrypt, so rotating the service key breaks no subscription).
 */

const PREFIX = 'whsec_';
/** Standard Webhooks asks for 24-64 random bytes. */
const SECRET_BYTES = 32;
const FORMAT = 'v1';

/** `whsec_` + base64 of 32 random bytes: what `new Webhook(secret)` of the standardwebhooks libraries takes. */
export const newSigningSecret = () => `${PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;

/**
 * `v1.<iv>.<tag>.<ciphertext>` (base64url). `context` (practice and subscription id) is bound as
 * additional authenticated data, so a ciphertext copied onto another subscription does not decrypt.
 */
export function encryptSecret(secret: string, context: string): string {
  const [key] = secretKeys('webhook');
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context));
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [FORMAT, iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** Tries each service key, current first; throws when none opens it (tampered, or the key is gone). */
export function decryptSecret(stored: string, context: string): string {
  const [format, iv, tag, ciphertext] = stored.split('.');
  if (format !== FORMAT || !iv || !tag || ciphertext === undefined) throw new Error('webhook secret: unknown format');
  for (const key of secretKeys('webhook')) {
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      // Not this key: try the next (an older one after a rotation).
    }
  }
  throw new Error('webhook secret: no service key decrypts it');
}
