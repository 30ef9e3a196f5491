import { afterEach, describe, expect, it, vi } from 'vitest';
import { signToken, tokenClaims } from '../../lib/auth/issue';
import { verifyToken } from '../../lib/auth/tokens';
import { setClock } from '../../lib/clock';

/** lib/auth/tokens.ts keeps verified tokens per container: what depends on time is checked on every use. */
const caller = { medspaId: '6f1c1f7e-8c4b-4f7e-9a53-2f0d6a3b9c11', clientId: 'ci_cache', role: 'manager' as const };

afterEach(() => {
  vi.useRealTimers();
  setClock(null);
});

describe('verified tokens, kept per container', () => {
  it('answer the same caller again', async () => {
    const token = await signToken(tokenClaims(caller, new Date()));
    expect(await verifyToken(token)).toEqual(caller);
    expect(await verifyToken(token)).toEqual(caller);
  });

  it('still expire at their exp', async () => {
    const now = new Date();
    const claims = { ...tokenClaims(caller, now), exp: Math.floor(now.getTime() / 1000) + 5 };
    const token = await signToken(claims);
    expect(await verifyToken(token)).toEqual(caller);
    vi.useFakeTimers({ toFake: ['Date'], now: now.getTime() + 10_000 });
    await expect(verifyToken(token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('are checked against real time again (an iat in the future), as aws-jwt-verify checks exp', async () => {
    const now = new Date();
    const token = await signToken(tokenClaims(caller, now));
    expect(await verifyToken(token)).toEqual(caller);
    // Time moved back by more than the skew: the token now claims to be issued in the future.
    vi.useFakeTimers({ toFake: ['Date'], now: now.getTime() - 10 * 60_000 });
    await expect(verifyToken(token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    vi.useRealTimers();
    // The data clock dates changes, not tokens: setting it does not touch a token's validity.
    setClock(new Date(now.getTime() - 10 * 60_000));
    expect(await verifyToken(token)).toEqual(caller);
    setClock(null);
    expect(await verifyToken(token)).toEqual(caller);
  });

  it('never vouch for another text: a token altered after a good one was kept is refused', async () => {
    const token = await signToken(tokenClaims(caller, new Date()));
    await verifyToken(token);
    const [head, body, signature] = token.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), role: 'admin' }),
    ).toString('base64url');
    await expect(verifyToken(`${head}.${forged}.${signature}`)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(verifyToken(`${head}.${body}.${signature!.slice(0, -4)}AAAA`)).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
  });
});
