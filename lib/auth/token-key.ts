import { createHash, createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { authorizeStandIn } from '../aws/local-runtime';
import { config } from '../config';
import { keyFromFile } from './key-file';
import { kmsPublicKey } from './kms-public-key';

export type PublicJwk = JsonWebKey & { kid: string; alg: 'ES256'; use: 'sig' };

/** The public JWK of a P-256 key, its `kid` the RFC 7638 thumbprint (SHA-256 of the required members, in order). */
export function publicJwkOf(key: KeyObject): PublicJwk {
  const { kty, crv, x, y } = (key.type === 'private' ? createPublicKey(key) : key).export({ format: 'jwk' }) as { kty: string; crv: string; x: string; y: string };
  const kid = createHash('sha256').update(JSON.stringify({ crv, kty, x, y })).digest('base64url');
  return { kty, crv, x, y, kid, alg: 'ES256', use: 'sig' };
}

let publicJwk: Promise<PublicJwk> | undefined;

/**
 * The public half of the token key, once per container: what every authenticated function
 * verifies with and the JWKS serves. On AWS one kms:GetPublicKey (without the KMS client, see
 * ./kms-public-key.ts); locally from the key file.
 */
export async function tokenPublicJwk(): Promise<PublicJwk> {
  const { SIGNING_KMS_KEY_ID, DATA_DIR, AWS_REGION } = config();
  // The key file stands in for KMS locally: each function's kms:GetPublicKey is still checked.
  if (!SIGNING_KMS_KEY_ID) await authorizeStandIn({ action: 'kms:GetPublicKey', resource: 'signingKey' });
  publicJwk ??= (SIGNING_KMS_KEY_ID
    ? kmsPublicKey(SIGNING_KMS_KEY_ID, AWS_REGION).then((spki) => publicJwkOf(createPublicKey({ key: spki, format: 'der', type: 'spki' })))
    : Promise.resolve().then(() => publicJwkOf(keyFromFile(DATA_DIR)))
  ).catch((error: unknown) => {
    // A failed fetch is not cached: the next request tries again.
    publicJwk = undefined;
    throw error;
  });
  return publicJwk;
}

export function resetTokenPublicJwk(): void {
  publicJwk = undefined;
}
