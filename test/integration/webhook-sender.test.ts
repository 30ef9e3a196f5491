import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import type { ContractEvent } from '../../lib/events/types';
import { sendWebhook, type SendInput } from '../../lib/webhooks/deliver';
import { newSigningSecret } from '../../lib/crypto/webhook-secrets';
import { startReceiver, type Receiver } from '../fixtures/receiver';

/** One attempt against a real HTTP receiver on 127.0.0.1: signing, failures, SSRF rules. */

const event = (overrides: Partial<ContractEvent> = {}): ContractEvent => ({
  id: `evt_${Math.random().toString(36).slice(2)}`,
  type: 'client.created',
  created_at: new Date().toISOString(),
  medspa_id: '11111111-1111-4111-8111-111111111111',
  data: { object: { id: 'c1', first_name: 'Ada' } },
  ...overrides,
});

let receiver: Receiver;
const secret = newSigningSecret();
const send = (overrides: Partial<SendInput> = {}) =>
  sendWebhook({
    url: receiver.url(),
    event: event(),
    secrets: [secret],
    now: new Date(),
    allowLocal: true,
    timeoutMs: 2000,
    ...overrides,
  });

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});

describe('a delivery attempt', () => {
  it('POSTs the event as JSON with Standard Webhooks headers that verify, and a tampered body does not', async () => {
    receiver.behave(() => 'ok');
    const sent = event();
    const outcome = await send({ event: sent });
    expect(outcome).toMatchObject({ ok: true, response_status: 200, error: null });
    expect(outcome.duration_ms).toBeGreaterThanOrEqual(0);
    const request = receiver.requests.at(-1)!;
    expect(request.method).toBe('POST');
    expect(request.headers).toMatchObject({ 'content-type': 'application/json', 'webhook-id': sent.id });
    expect(request.headers['user-agent']).toMatch(/^medspa-api-webhooks\//);
    expect(Number(request.headers['webhook-timestamp'])).toBeCloseTo(Date.now() / 1000, -2);
    expect(JSON.parse(request.body)).toEqual(sent);
    expect(new Webhook(secret).verify(request.body, request.headers)).toEqual(sent);
    expect(() => new Webhook(secret).verify(request.body.replace('Ada', 'Eve'), request.headers)).toThrow();
    expect(() => new Webhook(newSigningSecret()).verify(request.body, request.headers)).toThrow();
  });

  it('signs with every secret given (space-separated), so either verifies', async () => {
    const previous = newSigningSecret();
    await send({ secrets: [secret, previous] });
    const request = receiver.requests.at(-1)!;
    expect(request.headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(secret).verify(request.body, request.headers)).toBeTruthy();
    expect(new Webhook(previous).verify(request.body, request.headers)).toBeTruthy();
  });

  it.each([
    ['a 500', { status: 500 }, { response_status: 500, error: 'HTTP 500' }],
    ['a 404', { status: 404 }, { response_status: 404, error: 'HTTP 404' }],
    [
      'a redirect (not followed)',
      { status: 302, location: 'http://169.254.169.254/latest/meta-data/' },
      { response_status: 302, error: 'redirect (HTTP 302) not followed' },
    ],
    ['a dropped connection', 'close', { response_status: null, error: 'connection closed by the receiver' }],
    ['a 100 MB body', { huge: 100 * 1024 * 1024 }, { response_status: 200, error: 'response body over 64 KiB' }],
  ] as const)('fails on %s, without throwing', async (_, behaviour, expected) => {
    receiver.behave(() => behaviour as never);
    const before = receiver.requests.length;
    const outcome = await send();
    expect(outcome).toMatchObject({ ok: false, ...expected });
    expect(receiver.requests.length).toBe(before + 1);
    // The receiver went through one request only: no redirect was followed.
  });

  it('gives up on a receiver that never answers at the time limit', async () => {
    receiver.behave(() => 'hang');
    const started = Date.now();
    const outcome = await send({ timeoutMs: 300 });
    expect(outcome).toMatchObject({ ok: false, response_status: null, error: 'no complete response within 0.3 s' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('fails on a refused connection', async () => {
    const closed = await startReceiver();
    const url = closed.url();
    await closed.close();
    expect(await send({ url })).toMatchObject({ ok: false, error: 'connection refused' });
  });
});

describe('SSRF rules at delivery time', () => {
  it('in production refuses http:// and loopback before connecting', async () => {
    receiver.behave(() => 'ok');
    const before = receiver.requests.length;
    expect(await send({ allowLocal: false })).toMatchObject({ ok: false, error: 'url must use https://' });
    expect(await send({ allowLocal: false, url: receiver.url().replace('http:', 'https:') })).toMatchObject({
      ok: false,
      error: expect.stringContaining('loopback'),
    });
    expect(receiver.requests.length).toBe(before);
  });

  it('in production refuses a name that resolves to any private address', async () => {
    const lookup = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ];
    expect(await send({ allowLocal: false, url: 'https://hooks.example.test/', lookup })).toMatchObject({
      ok: false,
      error: 'url resolves to a private, loopback or link-local address',
    });
    const metadata = async () => [{ address: '169.254.169.254', family: 4 }];
    expect(await send({ allowLocal: false, url: 'https://metadata.example.test/', lookup: metadata })).toMatchObject({
      ok: false,
    });
    const mapped = async () => [{ address: '::ffff:127.0.0.1', family: 6 }];
    expect(await send({ allowLocal: false, url: 'https://mapped.example.test/', lookup: mapped })).toMatchObject({
      ok: false,
    });
  });

  it('connects to the address it resolved and checked, never resolving again (no DNS rebinding)', async () => {
    receiver.behave(() => 'ok');
    let lookups = 0;
    // A rebinding resolver: the first answer is the one checked; any later one would differ.
    const lookup = async () => {
      lookups += 1;
      return [{ address: lookups === 1 ? '127.0.0.1' : '10.9.9.9', family: 4 }];
    };
    const port = new URL(receiver.origin).port;
    const outcome = await send({ url: `http://localhost:${port}/pinned`, lookup });
    expect(outcome).toMatchObject({ ok: true, response_status: 200 });
    expect(lookups).toBe(1);
    expect(receiver.requests.at(-1)).toMatchObject({ path: '/pinned', headers: { host: `localhost:${port}` } });
  });
});
