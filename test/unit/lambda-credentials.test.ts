import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BUNDLE_ALIASES } from '../../infra/constructs/bundling';
import { defaultProvider } from '../../infra/constructs/lambda-credentials';

/** The function bundles' stand-in for the SDK's default credential chain (infra/constructs/bundling.ts). */
const NAMES = [
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_CONTAINER_CREDENTIALS_FULL_URI',
  'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI',
  'AWS_PROFILE',
];
const saved = Object.fromEntries(NAMES.map((name) => [name, process.env[name]]));
const setEnv = (values: Record<string, string | undefined>) => {
  for (const name of NAMES) {
    const value = name in values ? values[name] : undefined;
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
};

afterEach(() => setEnv(saved));

describe('Lambda credentials in function bundles', () => {
  it('replace @aws-sdk/credential-provider-node when bundling', () => {
    expect(BUNDLE_ALIASES['@aws-sdk/credential-provider-node']).toBe('infra/constructs/lambda-credentials.ts');
  });

  it('are the role credentials Lambda puts in the environment', async () => {
    setEnv({ AWS_ACCESS_KEY_ID: 'AKIDLAMBDA', AWS_SECRET_ACCESS_KEY: 'secret', AWS_SESSION_TOKEN: 'token' });
    expect(await defaultProvider()()).toMatchObject({
      accessKeyId: 'AKIDLAMBDA',
      secretAccessKey: 'secret',
      sessionToken: 'token',
    });
  });

  it('come from the container credentials endpoint when that is what the runtime provides', async () => {
    const server = createServer((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          AccessKeyId: 'AKIDCONTAINER',
          SecretAccessKey: 'secret',
          Token: 'token',
          Expiration: new Date(Date.now() + 3_600_000).toISOString(),
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      setEnv({
        AWS_CONTAINER_CREDENTIALS_FULL_URI: `http://127.0.0.1:${(server.address() as AddressInfo).port}/creds`,
      });
      expect(await defaultProvider()()).toMatchObject({ accessKeyId: 'AKIDCONTAINER', sessionToken: 'token' });
    } finally {
      server.close();
    }
  });

  it('say where they looked when neither is there', async () => {
    setEnv({ AWS_PROFILE: 'someone' });
    await expect(defaultProvider()()).rejects.toThrow(/AWS_ACCESS_KEY_ID.*container credentials endpoint/);
  });
});
