import { randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashSecret, newClientSecret, verifySecret } from '../../lib/auth/secrets';

describe('client secrets', () => {
  it('are 256 random bits, stored as their SHA-256 only', async () => {
    const secret = newClientSecret();
    expect(Buffer.from(secret.slice(3), 'base64url')).toHaveLength(32);
    const stored = hashSecret(secret);
    expect(stored).toMatch(/^sha256\$[A-Za-z0-9_-]{43}$/);
    expect(stored).not.toContain(secret.slice(3));
    expect(await verifySecret(secret, stored)).toBe(true);
    expect(await verifySecret(newClientSecret(), stored)).toBe(false);
  });

  it('still verify against a scrypt hash stored before the switch', async () => {
    const secret = newClientSecret();
    const salt = randomBytes(16);
    const legacy = `scrypt$1024$${salt.toString('base64url')}$${scryptSync(secret, salt, 32, { N: 1024, r: 8, p: 1 }).toString('base64url')}`;
    expect(await verifySecret(secret, legacy)).toBe(true);
    expect(await verifySecret(`${secret}x`, legacy)).toBe(false);
  });

  it('never match a malformed or unknown stored form', async () => {
    const secret = newClientSecret();
    for (const stored of [
      '',
      'sha256$',
      `sha256$${hashSecret(secret).slice(7)}$extra`,
      `md5$${hashSecret(secret).slice(7)}`,
      'scrypt$1024$$',
    ]) {
      expect(await verifySecret(secret, stored)).toBe(false);
    }
  });
});
