import { randomUUID } from 'node:crypto';
import { config } from '../config';
import { tokenSigner } from './signing';
import { TOKEN_AUDIENCE, TOKEN_TTL_SECONDS, type Caller } from './tokens';

/** Issuing access tokens: the token function's side (only its bundle carries the signer, see ./signing.ts). */

const b64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');

/** The claims of an access token for this caller. */
export function tokenClaims(caller: Caller, now: Date): Record<string, unknown> {
  const iat = Math.floor(now.getTime() / 1000);
  return {
    iss: config().TOKEN_ISSUER,
    aud: TOKEN_AUDIENCE,
    sub: caller.clientId,
    medspa_id: caller.medspaId,
    role: caller.role,
    iat,
    exp: iat + TOKEN_TTL_SECONDS,
    jti: randomUUID(),
  };
}

/** A compact JWS (ES256) of these claims with the server's key; `header` may add fields (tests). */
export async function signToken(
  claims: Record<string, unknown>,
  header: Record<string, unknown> = {},
): Promise<string> {
  const signer = await tokenSigner();
  const head = b64url(JSON.stringify({ alg: 'ES256', typ: 'JWT', kid: signer.kid, ...header }));
  const body = b64url(JSON.stringify(claims));
  const signature = await signer.sign(Buffer.from(`${head}.${body}`));
  return `${head}.${body}.${b64url(signature)}`;
}

export const issueToken = (caller: Caller, now: Date): Promise<string> => signToken(tokenClaims(caller, now));
