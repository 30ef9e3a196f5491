import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { derToJose } from '../../lib/auth/signing';

describe('KMS signature conversion (DER → JOSE r||s)', () => {
  it('turns DER ECDSA signatures, whatever their integer lengths, into verifiable P1363 signatures', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    // Many signatures, so r and s with leading zero bytes (shorter DER integers) and with the
    // 0x00 sign byte (longer ones) both occur.
    for (let i = 0; i < 300; i += 1) {
      const data = Buffer.from(`token ${i}`);
      const der = sign('sha256', data, { key: privateKey, dsaEncoding: 'der' });
      const jose = derToJose(der);
      expect(jose).toHaveLength(64);
      expect(verify('sha256', data, { key: publicKey, dsaEncoding: 'ieee-p1363' }, jose)).toBe(true);
    }
  });
});
