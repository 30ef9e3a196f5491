import { randomUUID } from 'node:crypto';
import { JwtVerifier } from 'aws-jwt-verify';
import { config } from '../config';
import { AppError } from '../errors';
import type { Role } from './roles';
import { tokenSigner } from './signing';

export const TOKEN_TTL_SECONDS = 3600;
export const TOKEN_AUDIENCE = 'medspa-api';

export interface Caller {
  medspaId: string;
  clientId: string;
  role: Role;
}

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
export async function signToken(claims: Record<string, unknown>, header: Record<string, unknown> = {}): Promise<string> {
  const signer = await tokenSigner();
  const head = b64url(JSON.stringify({ alg: 'ES256', typ: 'JWT', kid: signer.kid, ...header }));
  const body = b64url(JSON.stringify(claims));
  const signature = await signer.sign(Buffer.from(`${head}.${body}`));
  return `${head}.${body}.${b64url(signature)}`;
}

export const issueToken = (caller: Caller, now: Date): Promise<string> => signToken(tokenClaims(caller, now));

type Verifier = { verifySync(token: string): Record<string, unknown> };
let verifier: Promise<Verifier> | undefined;

/** Built once per process; the JWKS is our own public key, cached so no HTTP fetch happens. */
function getVerifier(): Promise<Verifier> {
  verifier ??= tokenSigner().then((signer) => {
    const jwtVerifier = JwtVerifier.create({
      issuer: config().TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
      jwksUri: 'https://jwks.invalid/never-fetched',
      customJwtCheck: ({ payload }) => {
        // aws-jwt-verify accepts a token without exp; ours always carry one.
        if (typeof payload.exp !== 'number') throw new Error('token has no exp');
      },
    });
    jwtVerifier.cacheJwks({ keys: [signer.publicJwk as never] });
    return jwtVerifier as unknown as Verifier;
  });
  return verifier;
}

export function resetVerifier(): void {
  verifier = undefined;
}

/** Any failure (none, alg none, other key, other issuer, expired, malformed) is 401 UNAUTHORIZED. */
export async function verifyToken(token: string): Promise<Caller> {
  const jwtVerifier = await getVerifier();
  let payload: Record<string, unknown>;
  try {
    payload = jwtVerifier.verifySync(token);
  } catch {
    throw new AppError('UNAUTHORIZED');
  }
  const { sub, medspa_id, role } = payload;
  if (typeof sub !== 'string' || typeof medspa_id !== 'string' || typeof role !== 'string') {
    throw new AppError('UNAUTHORIZED');
  }
  return { clientId: sub, medspaId: medspa_id, role: role as Role };
}
