import { randomUUID } from 'node:crypto';
import { JwtVerifier } from 'aws-jwt-verify';
import { config } from '../config';
import { AppError } from '../errors';
import { ROLES, type Role } from './roles';
import { tokenSigner } from './signing';

export const TOKEN_TTL_SECONDS = 3600;
export const TOKEN_AUDIENCE = 'medspa-api';
/**
 * Clock difference tolerated between the issuer and a verifier: a token may claim an `iat` up to
 * this far in the future, and a lifetime (`exp - iat`) up to TOKEN_TTL_SECONDS plus this.
 */
export const TOKEN_CLOCK_SKEW_SECONDS = 60;

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

const isWholeNumber = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value);
const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/**
 * What a token must say beyond a valid signature, issuer, audience and expiry (which aws-jwt-verify
 * checks). Throws on the first problem; the message is for logs only, the caller always sees 401.
 * - no `crit` header at all: we understand no JWS extension, so RFC 7515 4.1.11 says refuse;
 * - `iat`, `exp`, `sub`, `medspa_id` and a known `role` present;
 * - `iat` not later than now + skew, and `exp - iat` at most the issued lifetime + skew, so a
 *   token minted with a long lifetime (a leaked or misused signing key) cannot outlive an hour.
 */
export function checkTokenClaims(header: Record<string, unknown>, payload: Record<string, unknown>, nowSeconds: number): void {
  if ('crit' in header) throw new Error('token header has crit');
  const { iat, exp, sub, medspa_id, role } = payload;
  if (!isWholeNumber(iat)) throw new Error('token has no iat');
  if (!isWholeNumber(exp)) throw new Error('token has no exp');
  if (!isText(sub) || !isText(medspa_id)) throw new Error('token has no sub or medspa_id');
  if (!(ROLES as readonly unknown[]).includes(role)) throw new Error('token has no known role');
  if (iat > nowSeconds + TOKEN_CLOCK_SKEW_SECONDS) throw new Error('token issued in the future');
  if (exp - iat > TOKEN_TTL_SECONDS + TOKEN_CLOCK_SKEW_SECONDS) throw new Error('token lifetime too long');
}

/** Built once per process; the JWKS is our own public key, cached so no HTTP fetch happens. */
function getVerifier(): Promise<Verifier> {
  verifier ??= tokenSigner().then((signer) => {
    const jwtVerifier = JwtVerifier.create({
      issuer: config().TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
      jwksUri: 'https://jwks.invalid/never-fetched',
      // Runs after the signature and the standard claims verified. aws-jwt-verify itself accepts a
      // token without exp and ignores iat and crit: checkTokenClaims refuses those.
      // Against real time, as aws-jwt-verify checks exp and nbf: the injectable clock dates data, not tokens.
      customJwtCheck: ({ header, payload }) =>
        checkTokenClaims(header as Record<string, unknown>, payload as Record<string, unknown>, Math.floor(Date.now() / 1000)),
    });
    jwtVerifier.cacheJwks({ keys: [signer.publicJwk as never] });
    return jwtVerifier as unknown as Verifier;
  });
  return verifier;
}

export function resetVerifier(): void {
  verifier = undefined;
}

/**
 * Any failure (none, alg none, other key, other issuer, expired, malformed, a `crit` header, a
 * missing claim, an over-long lifetime, a future `iat`) is 401 UNAUTHORIZED.
 */
export async function verifyToken(token: string): Promise<Caller> {
  const jwtVerifier = await getVerifier();
  let payload: Record<string, unknown>;
  try {
    payload = jwtVerifier.verifySync(token);
  } catch {
    throw new AppError('UNAUTHORIZED');
  }
  // checkTokenClaims has already required these three.
  return { clientId: payload.sub as string, medspaId: payload.medspa_id as string, role: payload.role as Role };
}
