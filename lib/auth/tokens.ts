// The verifier's own module: the package's index also brings its Cognito verifier into every bundle.
import { JwtVerifier } from 'aws-jwt-verify/jwt-verifier';
import { BoundedCache } from '../cache';
import { config } from '../config';
import { AppError } from '../errors';
import { ROLES, type Role } from './roles';
import { requireStageEnvironment } from '../aws/local-runtime';
import { TOKEN_PUBLIC_KEY_ENV, tokenPublicJwk } from './token-key';

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

/**
 * A browser calling `/v1/public/*` with a publishable key: `clientId` is the key's id, the
 * credential named in audit entries, rate limits and Idempotency-Key records.
 */
export interface PublicCaller {
  medspaId: string;
  clientId: string;
  role: 'public';
}

export type AnyCaller = Caller | PublicCaller;

type Verifier = { verifySync(token: string): Record<string, unknown> };
let verifier: Verifier | undefined;

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
export function checkTokenClaims(
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  nowSeconds: number,
): void {
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
function getVerifier(): Verifier {
  if (verifier) return verifier;
  const jwtVerifier = JwtVerifier.create({
    issuer: config().TOKEN_ISSUER,
    audience: TOKEN_AUDIENCE,
    jwksUri: 'https://jwks.invalid/never-fetched',
    // Runs after the signature and the standard claims verified. aws-jwt-verify itself accepts a
    // token without exp and ignores iat and crit: checkTokenClaims refuses those.
    // Against real time, as aws-jwt-verify checks exp and nbf: the injectable clock dates data, not tokens.
    customJwtCheck: ({ header, payload }) =>
      checkTokenClaims(
        header as Record<string, unknown>,
        payload as Record<string, unknown>,
        Math.floor(Date.now() / 1000),
      ),
  });
  jwtVerifier.cacheJwks({ keys: [tokenPublicJwk() as never] });
  verifier = jwtVerifier as unknown as Verifier;
  return verifier;
}

export function resetVerifier(): void {
  verifier = undefined;
  verified.clear();
}

interface Verified {
  caller: Caller;
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
}

/**
 * Tokens whose signature, issuer and audience this container has verified, by their exact text:
 * a caller sends the same token with every request for up to an hour, and the ECDSA check and
 * JSON parsing are the costly part. Every use still checks what depends on time (exp, nbf, and
 * checkTokenClaims with the clock), so a cached token expires exactly when it would have, and
 * revocation is untouched: lib/auth/access.ts checks the credential on every request. Bounded:
 * the least recently used entry leaves first.
 */
const verified = new BoundedCache<string, Verified>({ max: 1000 });

function stillValid({ header, payload }: Verified): boolean {
  const now = Date.now() / 1000; // as aws-jwt-verify reads exp and nbf
  if (typeof payload.exp !== 'number' || payload.exp < now) return false;
  if (typeof payload.nbf === 'number' && payload.nbf > now) return false;
  try {
    checkTokenClaims(header, payload, Math.floor(now));
    return true;
  } catch {
    return false;
  }
}

/**
 * Any failure (none, alg none, other key, other issuer, expired, malformed, a `crit` header, a
 * missing claim, an over-long lifetime, a future `iat`) is 401 UNAUTHORIZED.
 */
export async function verifyToken(token: string): Promise<Caller> {
  // Locally every function shares this process's verifier; on AWS each is given the key itself.
  requireStageEnvironment(TOKEN_PUBLIC_KEY_ENV);
  const known = verified.get(token);
  if (known) {
    if (stillValid(known)) return known.caller;
    verified.delete(token);
  }
  const jwtVerifier = getVerifier();
  let header: Record<string, unknown> = {};
  let payload: Record<string, unknown>;
  try {
    payload = jwtVerifier.verifySync(token);
    header = JSON.parse(Buffer.from(token.slice(0, token.indexOf('.')), 'base64url').toString('utf8'));
  } catch {
    throw new AppError('UNAUTHORIZED');
  }
  // checkTokenClaims has already required these three.
  const caller: Caller = {
    clientId: payload.sub as string,
    medspaId: payload.medspa_id as string,
    role: payload.role as Role,
  };
  verified.set(token, { caller, header, payload });
  return caller;
}
