import { createHash, createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';

/** Signs access tokens (ES256). Locally a key file under DATA_DIR; on AWS a KMS key that never leaves KMS. */
export interface TokenSigner {
  kid: string;
  publicJwk: JsonWebKey & { kid: string; alg: 'ES256'; use: 'sig' };
  /** ES256 signature in JOSE (IEEE P1363, r||s) form. */
  sign(data: Buffer): Promise<Buffer>;
}

/** The public JWK of a P-256 key, its `kid` the RFC 7638 thumbprint (SHA-256 of the required members, in order). */
export function publicJwkOf(key: KeyObject): TokenSigner['publicJwk'] {
  const { kty, crv, x, y } = (key.type === 'private' ? createPublicKey(key) : key).export({ format: 'jwk' }) as { kty: string; crv: string; x: string; y: string };
  const kid = createHash('sha256').update(JSON.stringify({ crv, kty, x, y })).digest('base64url');
  return { kty, crv, x, y, kid, alg: 'ES256', use: 'sig' };
}
