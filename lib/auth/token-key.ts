import { createHash, createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { requireStageEnvironment } from '../aws/local-runtime';
import { config } from '../config';
import { keyFromFile } from './key-file';

export type PublicJwk = JsonWebKey & { kid: string; alg: 'ES256'; use: 'sig' };

/** The public JWK of a P-256 key, its `kid` the RFC 7638 thumbprint (SHA-256 of the required members, in order). */
export function publicJwkOf(key: KeyObject): PublicJwk {
  const { kty, crv, x, y } = (key.type === 'private' ? createPublicKey(key) : key).export({ format: 'jwk' }) as {
    kty: string;
    crv: string;
    x: string;
    y: string;
  };
  const kid = createHash('sha256').update(JSON.stringify({ crv, kty, x, y })).digest('base64url');
  return { kty, crv, x, y, kid, alg: 'ES256', use: 'sig' };
}

/** The env var that carries the token key's public half on AWS (set at deploy, see lib/config.ts). */
export const TOKEN_PUBLIC_KEY_ENV = 'TOKEN_PUBLIC_KEY';

let publicJwk: PublicJwk | undefined;

/**
 * The public half of the token key, once per container: what every authenticated function
 * verifies with and the JWKS serves. On AWS it comes with the function's configuration
 * (TOKEN_PUBLIC_KEY, read from KMS at deploy): no round trip on a cold start. Locally the key file
 * stands in, for a function the stage gives TOKEN_PUBLIC_KEY to.
 */
export function tokenPublicJwk(): PublicJwk {
  const { TOKEN_PUBLIC_KEY, SIGNING_KMS_KEY_ID, DATA_DIR } = config();
  requireStageEnvironment(TOKEN_PUBLIC_KEY_ENV);
  if (publicJwk) return publicJwk;
  if (TOKEN_PUBLIC_KEY) {
    publicJwk = publicJwkOf(
      createPublicKey({ key: Buffer.from(TOKEN_PUBLIC_KEY, 'base64'), format: 'der', type: 'spki' }),
    );
  } else if (SIGNING_KMS_KEY_ID) {
    // A KMS key and no public half: a function the stage did not wire (infra/constructs/app-function.ts).
    throw new Error(
      `${TOKEN_PUBLIC_KEY_ENV} is not set: the stage gives it to every function that verifies or issues tokens`,
    );
  } else {
    publicJwk = publicJwkOf(keyFromFile(DATA_DIR));
  }
  return publicJwk;
}

export function resetTokenPublicJwk(): void {
  publicJwk = undefined;
}
