import { afterEach, describe, expect, it } from 'vitest';
import { config, resetConfig } from '../../lib/config';
import { resetSecretKeys } from '../../lib/crypto/named-secret';
import { decryptSecret, encryptSecret, newSigningSecret } from '../../lib/crypto/webhook-secrets';
import {
  checkWebhookUrl,
  isBlockedAddress,
  parseRetrySchedule,
  retryDelay,
  shouldAutoDisable,
  wantsEvent,
} from '../../lib/domain/webhooks';
import { rulesMatching } from '../../lib/events/rules';

const toFanOut = (event: Record<string, unknown>) =>
  rulesMatching(event).some((rule) => rule.target.queue === 'events');
import { derivedId } from '../../lib/webhooks/jobs';
import { sqsDelaySeconds } from '../../lib/webhooks/sqs-queue';

describe('retry schedule', () => {
  it("parses the contract's default and short test schedules into seconds", () => {
    expect(parseRetrySchedule('5s,5m,30m,2h,5h,10h')).toEqual([5, 300, 1800, 7200, 18000, 36000]);
    expect(parseRetrySchedule('1s, 2s,5')).toEqual([1, 2, 5]);
    expect(parseRetrySchedule('250ms,1d')).toEqual([0.25, 86400]);
  });

  it.each(['', '5s,,1m', 'soon', '5x', '-1s'])('refuses %j', (text) => {
    expect(() => parseRetrySchedule(text)).toThrow();
  });

  it('comes from WEBHOOK_RETRY_SCHEDULE, parsed once in config, failing fast on a bad value', () => {
    try {
      resetConfig();
      expect(config().WEBHOOK_RETRY_SCHEDULE).toEqual([5, 300, 1800, 7200, 18000, 36000]);
      process.env.WEBHOOK_RETRY_SCHEDULE = '1s,2s,5s';
      resetConfig();
      expect(config().WEBHOOK_RETRY_SCHEDULE).toEqual([1, 2, 5]);
      process.env.WEBHOOK_RETRY_SCHEDULE = 'often';
      resetConfig();
      expect(() => config()).toThrow(/WEBHOOK_RETRY_SCHEDULE|duration/);
    } finally {
      delete process.env.WEBHOOK_RETRY_SCHEDULE;
      resetConfig();
    }
  });

  it('waits the n-th value after the n-th failed attempt, then gives up', () => {
    const schedule = [1, 2, 5];
    expect([1, 2, 3, 4].map((attempt) => retryDelay(schedule, attempt))).toEqual([1, 2, 5, null]);
  });
});

describe('retry jitter', () => {
  it('places each wait within ±20% of the schedule (Svix), spread by the random source, the schedule itself by default', () => {
    const schedule = [5, 300];
    expect(retryDelay(schedule, 2, () => 0)).toBeCloseTo(240, 9);
    expect(retryDelay(schedule, 2, () => 0.5)).toBe(300);
    expect(retryDelay(schedule, 2, () => 0.999_999)).toBeCloseTo(360, 3);
    expect(retryDelay(schedule, 3, () => 0)).toBeNull();
    const waits = Array.from({ length: 200 }, () => retryDelay(schedule, 1, Math.random)!);
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(4);
    expect(Math.max(...waits)).toBeLessThan(6);
    expect(new Set(waits).size).toBeGreaterThan(100);
  });
});

describe('addresses a delivery may reach', () => {
  it.each([
    '10.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.0.1',
    '127.0.0.1',
    '127.1.2.3',
    '169.254.169.254',
    '169.254.1.1',
    '100.64.0.1',
    '100.127.255.255',
    '0.0.0.0',
    '224.0.0.1',
    '239.255.255.250',
    '255.255.255.255',
    '::1',
    '::',
    'fc00::1',
    'fd12:3456::1',
    'fd00:ec2::254',
    'fe80::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:a9fe:a9fe',
    '::ffff:192.168.1.1',
    '64:ff9b::a00:1',
    'not-an-ip',
  ])('blocks %s', (address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '192.169.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'allows %s',
    (address) => {
      expect(isBlockedAddress(address)).toBe(false);
    },
  );
});

describe('webhook URLs', () => {
  const prod = { allowLocal: false };
  const local = { allowLocal: true };

  it('takes https:// in production', () => {
    expect(checkWebhookUrl('https://hooks.example.com/medspa?x=1', prod)).toMatchObject({
      ok: true,
      host: 'hooks.example.com',
      publicOnly: true,
    });
    expect(checkWebhookUrl('https://8.8.8.8:8443/', prod)).toMatchObject({ ok: true });
  });

  it.each([
    ['http://hooks.example.com/', 'must use https://'],
    ['ftp://hooks.example.com/', 'must use https://'],
    ['http://localhost:3000/', 'must use https://'],
    ['https://localhost/', 'loopback'],
    ['https://api.localhost/', 'loopback'],
    ['https://127.0.0.1/', 'private, loopback or link-local'],
    ['https://10.0.0.5/', 'private, loopback or link-local'],
    ['https://169.254.169.254/latest/meta-data/', 'private, loopback or link-local'],
    ['https://[::1]/', 'private, loopback or link-local'],
    ['https://[::ffff:127.0.0.1]/', 'private, loopback or link-local'],
    ['https://[fd00:ec2::254]/', 'private, loopback or link-local'],
    ['https://2130706433/', 'private, loopback or link-local'], // 127.0.0.1 as one number
    ['https://0x7f.1/', 'private, loopback or link-local'],
    ['https://user:pass@hooks.example.com/', 'credentials'],
    ['hooks.example.com/path', 'absolute URL'],
    [`https://example.com/${'a'.repeat(2048)}`, 'at most'],
  ])('refuses %s in production', (url, problem) => {
    const check = checkWebhookUrl(url, prod);
    expect(check.ok).toBe(false);
    expect(!check.ok && check.problem).toContain(problem);
  });

  it('locally also takes http://localhost and http://127.0.0.1 on any port, and nothing else over http', () => {
    expect(checkWebhookUrl('http://localhost:4000/hooks', local)).toMatchObject({ ok: true, publicOnly: false });
    expect(checkWebhookUrl('http://127.0.0.1:59999/', local)).toMatchObject({ ok: true, publicOnly: false });
    expect(checkWebhookUrl('http://10.0.0.1/', local).ok).toBe(false);
    expect(checkWebhookUrl('http://example.com/', local).ok).toBe(false);
  });
});

describe('subscriptions', () => {
  it('take their chosen types or "*", and webhook.test only ever directly', () => {
    expect(wantsEvent(['client.created'], 'client.created')).toBe(true);
    expect(wantsEvent(['client.created'], 'client.updated')).toBe(false);
    expect(wantsEvent(['*'], 'payment.received')).toBe(true);
    expect(wantsEvent(['*'], 'webhook.test')).toBe(false);
  });

  it('are disabled after 3 days of failures, not before', () => {
    const since = new Date(Date.UTC(2020, 0, 1));
    const later = (ms: number) => new Date(since.getTime() + ms);
    const day = 86_400_000;
    expect(shouldAutoDisable(since.toISOString(), later(3 * day - 1))).toBe(false);
    expect(shouldAutoDisable(since.toISOString(), later(3 * day))).toBe(true);
    expect(shouldAutoDisable(null, later(30 * day))).toBe(false);
  });
});

describe('signing secrets at rest', () => {
  afterEach(() => {
    delete process.env.WEBHOOK_SECRET;
    resetSecretKeys();
  });

  it('are whsec_ + base64 of 32 random bytes', () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newSigningSecret()).not.toBe(secret);
  });

  it('are AES-256-GCM ciphertext bound to their subscription, and survive a service key rotation', () => {
    process.env.WEBHOOK_SECRET = 'old-service-key';
    resetSecretKeys();
    const secret = newSigningSecret();
    const stored = encryptSecret(secret, 'm1:w1');
    expect(stored).not.toContain(secret.slice(6, 20));
    expect(decryptSecret(stored, 'm1:w1')).toBe(secret);
    expect(() => decryptSecret(stored, 'm1:w2')).toThrow();
    const [v, iv, tag, body] = stored.split('.');
    const flipped = Buffer.from(body, 'base64url');
    flipped[0] ^= 1;
    expect(() => decryptSecret([v, iv, tag, flipped.toString('base64url')].join('.'), 'm1:w1')).toThrow();

    process.env.WEBHOOK_SECRET = 'new-service-key,old-service-key';
    resetSecretKeys();
    expect(decryptSecret(stored, 'm1:w1')).toBe(secret);
    expect(decryptSecret(encryptSecret(secret, 'm1:w1'), 'm1:w1')).toBe(secret);
    process.env.WEBHOOK_SECRET = 'new-service-key';
    resetSecretKeys();
    expect(() => decryptSecret(stored, 'm1:w1')).toThrow();
  });
});

describe('queue plumbing', () => {
  it('derives stable v4-shaped ids', () => {
    const id = derivedId('evt_1', 'sub');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(derivedId('evt_1', 'sub')).toBe(id);
    expect(derivedId('evt_1', 'sub2')).not.toBe(id);
  });

  it('rounds SQS delays up to whole seconds, at most 900', () => {
    expect([0, 0.01, 1, 4.2, 900, 36000].map(sqsDelaySeconds)).toEqual([0, 1, 1, 5, 900, 900]);
  });

  it('routes contract events to the webhook fan-out by the bus rule', () => {
    const onBus = (type: string, source = 'medspa-api') => ({ source, 'detail-type': type, detail: {} });
    expect(toFanOut(onBus('appointment.created'))).toBe(true);
    expect(toFanOut(onBus('webhook.test'))).toBe(false);
    expect(toFanOut(onBus('appointment.created', 'other'))).toBe(false);
  });
});
