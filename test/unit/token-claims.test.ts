import { describe, expect, it } from 'vitest';
import { checkTokenClaims, TOKEN_CLOCK_SKEW_SECONDS as SKEW, TOKEN_TTL_SECONDS as TTL } from '../../lib/auth/tokens';

/** The checks after the signature, at exact bounds (the integration tests sign real tokens). */
describe('checkTokenClaims', () => {
  const now = 1_000_000_000;
  const header = { alg: 'ES256', typ: 'JWT', kid: 'k' };
  const claims = { sub: 'ci_x', medspa_id: 'm', role: 'manager', iat: now, exp: now + TTL };
  const check =
    (payload: Record<string, unknown>, head: Record<string, unknown> = header) =>
    () =>
      checkTokenClaims(head, payload, now);

  it('accepts the issued shape, a lifetime of exactly TTL + skew, and an iat exactly skew ahead', () => {
    expect(check(claims)).not.toThrow();
    expect(check({ ...claims, exp: now + TTL + SKEW })).not.toThrow();
    expect(check({ ...claims, iat: now + SKEW, exp: now + SKEW + TTL })).not.toThrow();
  });

  it('refuses one second past each bound', () => {
    expect(check({ ...claims, exp: now + TTL + SKEW + 1 })).toThrow(/lifetime/);
    expect(check({ ...claims, iat: now + SKEW + 1, exp: now + SKEW + 1 + TTL })).toThrow(/future/);
  });

  it.each(['iat', 'exp', 'sub', 'medspa_id', 'role'])('refuses a token without %s', (claim) => {
    const { [claim]: _gone, ...rest } = claims as Record<string, unknown>;
    expect(check(rest)).toThrow();
  });

  it('refuses any crit header, even an empty one', () => {
    expect(check(claims, { ...header, crit: [] })).toThrow(/crit/);
    expect(check(claims, { ...header, crit: ['exp'] })).toThrow(/crit/);
  });
});
