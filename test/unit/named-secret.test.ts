import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  loadSecretKeys,
  resetSecretKeys,
  SECRET_MAX_AGE_SECONDS,
  secretArnEnv,
  secretKeys,
} from '../../lib/crypto/named-secret';

/** Powertools Parameters, as a function on AWS reads the stage's secret through it. */
const getSecret = vi.hoisted(() => vi.fn<(name: string, options: object) => Promise<unknown>>());
vi.mock('@aws-lambda-powertools/parameters/secrets', () => ({ getSecret }));

const ARN = 'arn:aws:secretsmanager:us-east-1:111122223333:secret:CursorSecret-abcdef';
const asLambda = (env: Record<string, string>) => {
  Object.assign(process.env, { AWS_LAMBDA_FUNCTION_NAME: 'listClients', ...env });
  resetSecretKeys();
};

afterEach(() => {
  delete process.env.AWS_LAMBDA_FUNCTION_NAME;
  delete process.env[secretArnEnv('cursor')];
  getSecret.mockReset();
  resetSecretKeys();
});

describe('a named secret on AWS (the function has its ARN, never its value)', () => {
  it('is read at first use through Powertools Parameters, kept SECRET_MAX_AGE_SECONDS, then handed out synchronously', async () => {
    asLambda({ [secretArnEnv('cursor')]: ARN });
    getSecret.mockResolvedValue('the-new-secret,the-old-secret');
    // Not read yet: the sealing code may not use it.
    expect(() => secretKeys('cursor')).toThrow(/The cursor secret was not read: loadSecretKeys\('cursor'\) first/);
    const keys = await loadSecretKeys('cursor');
    expect(getSecret).toHaveBeenCalledWith(ARN, { maxAge: SECRET_MAX_AGE_SECONDS });
    expect(keys).toHaveLength(2);
    expect(secretKeys('cursor')).toBe(keys);
    // The same value again (Powertools' cache): the same keys, not derived again.
    expect(await loadSecretKeys('cursor')).toBe(keys);
    // A rotated value, once Powertools fetches it again: new keys.
    getSecret.mockResolvedValue('the-newest-secret,the-new-secret');
    const rotated = await loadSecretKeys('cursor');
    expect(rotated).toHaveLength(2);
    expect(rotated[1]).toEqual(keys[0]);
    expect(secretKeys('cursor')).toBe(rotated);
  });

  it('fails loudly in a function the stage does not give the secret, and never falls back to a local value', async () => {
    asLambda({ CURSOR_SECRET: 'a-local-value' });
    await expect(loadSecretKeys('cursor')).rejects.toThrow(
      'CURSOR_SECRET_ARN is not set: the stage gives it only to the functions that read the cursor secret',
    );
    expect(() => secretKeys('cursor')).toThrow(/was not read/);
    expect(getSecret).not.toHaveBeenCalled();
  });

  it('refuses an empty secret', async () => {
    asLambda({ [secretArnEnv('cursor')]: ARN });
    getSecret.mockResolvedValue(' , ');
    await expect(loadSecretKeys('cursor')).rejects.toThrow('The cursor secret is empty');
  });
});
