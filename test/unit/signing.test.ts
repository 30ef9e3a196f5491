import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { calculateJwkThumbprint } from 'jose';
import { describe, expect, it } from 'vitest';
import { derToJose } from '../../lib/auth/kms-signer';
import { publicJwkOf } from '../../lib/auth/token-key';

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

describe('the public JWK', () => {
  it('is named by its RFC 7638 thumbprint (as jose computes it)', async () => {
    for (let i = 0; i < 20; i += 1) {
      const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const jwk = publicJwkOf(publicKey);
      expect(jwk).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
      expect(jwk.kid).toBe(await calculateJwkThumbprint({ kty: jwk.kty!, crv: jwk.crv!, x: jwk.x!, y: jwk.y! }));
    }
  });
});
