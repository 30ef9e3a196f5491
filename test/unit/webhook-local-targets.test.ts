import { describe, expect, it } from 'vitest';
import { subscriptionUrlProblem, type Lookup } from '../../lib/webhooks/address';

/**
 * Locally (ALLOW_LOCAL_WEBHOOKS) a receiver may be `http://localhost` or `http://127.0.0.1`
 * (API reference, webhooks and events) and nothing else inside: every other target must be public, as in production.
 */
const resolvesTo =
  (address: string): Lookup =>
  async () => [{ address, family: address.includes(':') ? 6 : 4 }];
const local = (url: string, lookup: Lookup = resolvesTo('93.184.216.34')) =>
  subscriptionUrlProblem(url, { allowLocal: true, lookup });

describe('local webhook targets', () => {
  it.each([
    'http://localhost:8080/hooks',
    'http://127.0.0.1:9/x',
    'https://localhost/hooks',
    'https://hooks.example.com/in',
  ])('accepts %s', async (url) => {
    expect(await local(url)).toBeNull();
  });

  it.each([
    'https://169.254.169.254/latest/meta-data',
    'https://10.0.0.1/',
    'https://192.168.1.10/',
    'https://172.16.0.1/',
    'https://100.64.0.1/',
    'https://[::1]/',
    'http://[::1]/',
    'https://127.0.0.2/',
    'http://10.0.0.1/',
    'https://[fe80::1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://app.localhost/',
  ])('refuses %s', async (url) => {
    expect(await local(url)).not.toBeNull();
  });

  it.each(['127.0.0.1', '10.1.2.3', '169.254.169.254', '::1'])(
    'refuses a name that resolves to %s',
    async (address) => {
      expect(await local('https://sneaky.example.test/hook', resolvesTo(address))).toMatch(
        /private, loopback or link-local/,
      );
    },
  );
});
