import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { resetConfig } from '../../lib/config';
import { ddb, tableName } from '../../lib/db/client';
import { entityKey } from '../../lib/db/keys';
import { autoDisableWebhook, findWebhook, recordDeliveryFailure } from '../../lib/db/webhooks';
import { logger } from '../../lib/log';
import { deliverOnce } from '../../lib/webhooks/jobs';
import { call, makePractice, type TestPractice } from '../fixtures/api';
import { startReceiver, type Receiver } from '../fixtures/receiver';

/** The webhook routes of the API reference's webhooks and events over the real router and handlers, against a real receiver. */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const setMode = (mode: 'local' | 'production') => {
  process.env.ALLOW_LOCAL_WEBHOOKS = mode === 'local' ? 'true' : 'false';
  resetConfig();
};

const expectError = (response: { status: number; body: any }, status: number, code: string) => {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.error.code).toBe(code);
};

let practice: TestPractice;
let receiver: Receiver;

const create = async (body: Record<string, unknown> = {}, token = practice.adminToken) => {
  const response = await call('POST', '/v1/webhooks', { token, body: { url: receiver.url(), events: ['*'], ...body } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data as { id: string; secret: string; version: number; [key: string]: unknown };
};

const deliveries = async (id: string, query = 'limit=100') => {
  const response = await call('GET', `/v1/webhooks/${id}/deliveries?${query}`, { token: practice.adminToken });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as { data: any[]; pagination: { total: number; next_cursor: string | null } };
};

beforeAll(async () => {
  setMode('local');
  practice = await makePractice();
  receiver = await startReceiver();
});
afterEach(() => {
  setMode('local');
  receiver.behave(() => 'ok');
  vi.restoreAllMocks();
});
afterAll(async () => {
  await receiver.close();
});

describe('subscriptions', () => {
  it('create answers 201 with the secret once; reads never show it; only ciphertext is stored', async () => {
    const response = await call('POST', '/v1/webhooks', {
      token: practice.adminToken,
      body: {
        url: receiver.url(),
        events: ['appointment.created', 'client.created', 'client.created'],
        description: 'CRM sync',
      },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const created = response.body.data;
    expect(created).toEqual({
      id: expect.stringMatching(UUID),
      medspa_id: practice.medspaId,
      url: receiver.url(),
      events: ['appointment.created', 'client.created'],
      description: 'CRM sync',
      enabled: true,
      disabled_reason: null,
      first_failure_at: null,
      last_success_at: null,
      version: 1,
      created_at: created.created_at,
      updated_at: created.created_at,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    const { secret, ...withoutSecret } = created;
    const got = await call('GET', `/v1/webhooks/${created.id}`, { token: practice.adminToken });
    expect(got.status).toBe(200);
    expect(got.headers.etag).toBe('"1"');
    expect(got.body.data).toEqual(withoutSecret);
    const listed = await call('GET', '/v1/webhooks', { token: practice.adminToken });
    expect(listed.body.data).toContainEqual(withoutSecret);
    expect(JSON.stringify(listed.body)).not.toContain('secret');

    const { Item } = await ddb().send(
      new GetCommand({ TableName: tableName(), Key: entityKey(practice.medspaId, 'WEBHOOK', created.id) }),
    );
    expect(Item!.secret_enc).toMatch(/^v1\./);
    expect(JSON.stringify(Item)).not.toContain(secret.slice('whsec_'.length));
  });

  it.each([
    [
      'an unknown event name',
      { events: ['client.created', 'client.exploded'] },
      'events.1',
      'unknown event type "client.exploded"',
    ],
    ['"*" mixed with names', { events: ['*', 'client.created'] }, 'events', '"*" stands alone'],
    ['no events', { events: [] }, 'events', ''],
    ['webhook.test (never subscribable)', { events: ['webhook.test'] }, 'events.0', 'unknown event type'],
    ['a non-URL', { url: 'not a url' }, 'url', 'absolute URL'],
    ['ftp://', { url: 'ftp://example.com/' }, 'url', 'https://'],
    ['http:// to another host, even locally', { url: 'http://example.com/hooks' }, 'url', 'https://'],
    ['credentials in the URL', { url: 'https://user:pw@example.com/' }, 'url', 'credentials'],
    ['an unknown field', { secret: 'whsec_mine' }, 'secret', 'unknown field'],
  ])('refuses %s: 400 VALIDATION_ERROR naming the field', async (_, change, path, message) => {
    const response = await call('POST', '/v1/webhooks', {
      token: practice.adminToken,
      body: { url: receiver.url(), events: ['*'], ...change },
    });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.details).toContainEqual({ path, message: expect.stringContaining(message) });
  });

  it('PATCH changes fields (version + 1, If-Match honoured); re-enabling clears disabled_reason and the failing streak', async () => {
    const hook = await create({ events: ['client.created'] });
    const url = `/v1/webhooks/${hook.id}`;
    const patched = await call('PATCH', url, {
      token: practice.adminToken,
      body: { events: ['payment.received'], description: null },
      headers: { 'if-match': '"1"' },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.data).toMatchObject({ events: ['payment.received'], description: null, version: 2 });
    expect(patched.headers.etag).toBe('"2"');
    expectError(
      await call('PATCH', url, { token: practice.adminToken, body: { enabled: false }, headers: { 'if-match': '1' } }),
      409,
      'VERSION_CONFLICT',
    );

    // The service disables it after 3 days of failures...
    const since = await recordDeliveryFailure(
      practice.medspaId,
      hook.id,
      new Date(Date.now() - 4 * 86_400_000).toISOString(),
    );
    expect(
      await autoDisableWebhook(practice.medspaId, hook.id, since!, 'every delivery failed', new Date().toISOString()),
    ).toBe(true);
    const disabled = await call('GET', url, { token: practice.adminToken });
    expect(disabled.body.data).toMatchObject({
      enabled: false,
      disabled_reason: 'every delivery failed',
      first_failure_at: since,
      version: 3,
    });
    // ...and its owner turns it back on.
    const enabled = await call('PATCH', url, { token: practice.adminToken, body: { enabled: true } });
    expect(enabled.body.data).toMatchObject({
      enabled: true,
      disabled_reason: null,
      first_failure_at: null,
      version: 4,
    });
  });

  it('PATCH validates url and events like create', async () => {
    const hook = await create();
    const response = await call('PATCH', `/v1/webhooks/${hook.id}`, {
      token: practice.adminToken,
      body: { url: 'http://example.com/', events: ['nope'] },
    });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.details.map((d: { path: string }) => d.path)).toContain('events.0');
  });

  it('DELETE answers the deletion; then the subscription is 404 everywhere', async () => {
    const hook = await create();
    const url = `/v1/webhooks/${hook.id}`;
    expectError(
      await call('DELETE', url, { token: practice.adminToken, headers: { 'if-match': '"7"' } }),
      409,
      'VERSION_CONFLICT',
    );
    const deleted = await call('DELETE', url, { token: practice.adminToken });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ id: hook.id, deleted: true });
    expectError(await call('GET', url, { token: practice.adminToken }), 404, 'WEBHOOK_NOT_FOUND');
    expectError(await call('DELETE', url, { token: practice.adminToken }), 404, 'WEBHOOK_NOT_FOUND');
    expectError(await call('POST', `${url}/test`, { token: practice.adminToken }), 404, 'WEBHOOK_NOT_FOUND');
  });
});

describe('SSRF at subscribe time (production mode)', () => {
  it.each([
    'http://hooks.example.com/',
    'http://localhost:8080/hooks',
    'http://127.0.0.1:8080/hooks',
    'https://localhost/hooks',
    'https://127.0.0.1/hooks',
    'https://10.1.2.3/hooks',
    'https://172.16.5.4/hooks',
    'https://192.168.1.10/hooks',
    'https://100.64.1.1/hooks',
    'https://169.254.169.254/latest/meta-data/',
    'https://[::1]/hooks',
    'https://[fe80::1]/hooks',
    'https://[fd00:ec2::254]/hooks',
    'https://[::ffff:169.254.169.254]/hooks',
    'https://0.0.0.0/hooks',
  ])('refuses %s with 400 VALIDATION_ERROR on url', async (url) => {
    setMode('production');
    const response = await call('POST', '/v1/webhooks', { token: practice.adminToken, body: { url, events: ['*'] } });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.details).toEqual([{ path: 'url', message: expect.any(String) }]);
  });

  it('refuses a PATCH to a private URL too', async () => {
    const hook = await create();
    setMode('production');
    const response = await call('PATCH', `/v1/webhooks/${hook.id}`, {
      token: practice.adminToken,
      body: { url: 'https://10.0.0.1/x' },
    });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.details[0].path).toBe('url');
  });

  it('and a subscription made locally is not delivered to loopback in production', async () => {
    const hook = await create();
    setMode('production');
    const before = receiver.requests.length;
    const response = await call('POST', `/v1/webhooks/${hook.id}/test`, { token: practice.adminToken });
    expect(response.body.data).toMatchObject({
      status: 'failed',
      error: 'url must use https://',
      response_status: null,
    });
    expect(receiver.requests.length).toBe(before);
  });
});

describe('roles and practices', () => {
  it('admin and manager manage webhooks; analysts, the front desk and providers get 403 (contract 7)', async () => {
    const hook = await create();
    const manager = await practice.tokenForRole('manager');
    const analyst = await practice.tokenForRole('analyst');
    const managed = await create({}, manager);
    expect(
      (await call('PATCH', `/v1/webhooks/${managed.id}`, { token: manager, body: { enabled: false } })).status,
    ).toBe(200);
    expectError(await call('GET', `/v1/webhooks/${hook.id}`, { token: analyst }), 403, 'FORBIDDEN');
    expectError(await call('GET', `/v1/webhooks/${hook.id}/deliveries`, { token: analyst }), 403, 'FORBIDDEN');
    expectError(await call('POST', `/v1/webhooks/${hook.id}/test`, { token: analyst }), 403, 'FORBIDDEN');
    expectError(
      await call('POST', '/v1/webhooks', { token: analyst, body: { url: receiver.url(), events: ['*'] } }),
      403,
      'FORBIDDEN',
    );

    const delivery = (await call('POST', `/v1/webhooks/${hook.id}/test`, { token: practice.adminToken })).body.data;
    for (const role of ['front_desk', 'provider'] as const) {
      const token = await practice.tokenForRole(role);
      const attempts = [
        call('GET', '/v1/webhooks', { token }),
        call('POST', '/v1/webhooks', { token, body: { url: receiver.url(), events: ['*'] } }),
        call('GET', `/v1/webhooks/${hook.id}`, { token }),
        call('PATCH', `/v1/webhooks/${hook.id}`, { token, body: { enabled: false } }),
        call('DELETE', `/v1/webhooks/${hook.id}`, { token }),
        call('POST', `/v1/webhooks/${hook.id}/rotate-secret`, { token }),
        call('POST', `/v1/webhooks/${hook.id}/test`, { token }),
        call('GET', `/v1/webhooks/${hook.id}/deliveries`, { token }),
        call('POST', `/v1/webhooks/${hook.id}/deliveries/${delivery.id}/retry`, { token }),
      ];
      for (const response of await Promise.all(attempts)) expectError(response, 403, 'FORBIDDEN');
    }
    expect((await call('GET', `/v1/webhooks/${hook.id}`, { token: practice.adminToken })).body.data.version).toBe(1);
  });

  it("answers 404 WEBHOOK_NOT_FOUND for unknown, malformed and other practices' ids", async () => {
    const other = await makePractice();
    const theirs = (
      await call('POST', '/v1/webhooks', { token: other.adminToken, body: { url: receiver.url(), events: ['*'] } })
    ).body.data;
    const theirDelivery = (await call('POST', `/v1/webhooks/${theirs.id}/test`, { token: other.adminToken })).body.data;
    const mine = await create();
    for (const id of [randomUUID(), 'not-a-uuid', theirs.id]) {
      const base = `/v1/webhooks/${id}`;
      const responses = await Promise.all([
        call('GET', base, { token: practice.adminToken }),
        call('PATCH', base, { token: practice.adminToken, body: { enabled: false } }),
        call('DELETE', base, { token: practice.adminToken }),
        call('POST', `${base}/rotate-secret`, { token: practice.adminToken }),
        call('POST', `${base}/test`, { token: practice.adminToken }),
        call('GET', `${base}/deliveries`, { token: practice.adminToken }),
        call('POST', `${base}/deliveries/${theirDelivery.id}/retry`, { token: practice.adminToken }),
      ]);
      for (const response of responses) expectError(response, 404, 'WEBHOOK_NOT_FOUND');
    }
    // A delivery id that is unknown, malformed, or another subscription's.
    for (const deliveryId of [randomUUID(), 'x', theirDelivery.id]) {
      expectError(
        await call('POST', `/v1/webhooks/${mine.id}/deliveries/${deliveryId}/retry`, { token: practice.adminToken }),
        404,
        'WEBHOOK_NOT_FOUND',
      );
    }
    expect((await call('GET', `/v1/webhooks/${theirs.id}`, { token: other.adminToken })).body.data.version).toBe(1);
  });
});

describe('test, deliveries, retry, rotation', () => {
  it('test sends a signed webhook.test at once and answers the attempt, which the log then shows', async () => {
    const hook = await create({ events: ['client.created'] });
    const response = await call('POST', `/v1/webhooks/${hook.id}/test`, { token: practice.adminToken });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const attempt = response.body.data;
    expect(attempt).toEqual({
      id: expect.stringMatching(UUID),
      event_id: expect.stringMatching(/^evt_/),
      event_type: 'webhook.test',
      attempt: 1,
      status: 'succeeded',
      response_status: 200,
      duration_ms: expect.any(Number),
      error: null,
      next_attempt_at: null,
      created_at: expect.any(String),
    });
    const request = receiver.requests.find((r) => r.headers['webhook-id'] === attempt.event_id)!;
    const body = new Webhook(hook.secret).verify(request.body, request.headers) as any;
    expect(body).toMatchObject({
      id: attempt.event_id,
      type: 'webhook.test',
      medspa_id: practice.medspaId,
      data: { object: { webhook_id: hook.id } },
    });
    expect(() =>
      new Webhook(hook.secret).verify(request.body.replace('webhook.test', 'client.created'), request.headers),
    ).toThrow();
    expect((await deliveries(hook.id)).data).toEqual([attempt]);
    expect(
      (await call('GET', `/v1/webhooks/${hook.id}`, { token: practice.adminToken })).body.data.last_success_at,
    ).toBe(attempt.created_at);
  });

  it('a failing receiver gives a failed attempt (never a 5xx of ours); retry delivers the same event again as a new attempt', async () => {
    const hook = await create();
    receiver.behave(() => ({ status: 503 }));
    const failed = (await call('POST', `/v1/webhooks/${hook.id}/test`, { token: practice.adminToken })).body.data;
    expect(failed).toMatchObject({ status: 'failed', response_status: 503, error: 'HTTP 503', attempt: 1 });
    expect(
      (await call('GET', `/v1/webhooks/${hook.id}`, { token: practice.adminToken })).body.data.first_failure_at,
    ).toBe(failed.created_at);

    receiver.behave(() => 'ok');
    const retried = await call('POST', `/v1/webhooks/${hook.id}/deliveries/${failed.id}/retry`, {
      token: practice.adminToken,
    });
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body.data).toMatchObject({
      status: 'succeeded',
      event_id: failed.event_id,
      attempt: 2,
      response_status: 200,
    });
    expect(retried.body.data.id).not.toBe(failed.id);
    const sent = receiver.requests.filter((r) => r.headers['webhook-id'] === failed.event_id);
    expect(sent).toHaveLength(2);
    expect(sent[1].body).toBe(sent[0].body);
    expect(
      (await call('GET', `/v1/webhooks/${hook.id}`, { token: practice.adminToken })).body.data.first_failure_at,
    ).toBeNull();
  });

  it('lists deliveries newest first, paginated', async () => {
    const hook = await create();
    const made: string[] = [];
    for (let i = 0; i < 3; i++)
      made.push((await call('POST', `/v1/webhooks/${hook.id}/test`, { token: practice.adminToken })).body.data.id);
    const first = await deliveries(hook.id, 'limit=2');
    expect(first.pagination.total).toBe(3);
    expect(first.data.map((d) => d.id)).toEqual([made[2], made[1]]);
    const second = await deliveries(hook.id, `limit=2&cursor=${first.pagination.next_cursor}`);
    expect(second.data.map((d) => d.id)).toEqual([made[0]]);
    expect(second.pagination.next_cursor).toBeNull();
    const other = await create();
    expectError(
      await call('GET', `/v1/webhooks/${other.id}/deliveries?cursor=${first.pagination.next_cursor}`, {
        token: practice.adminToken,
      }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('rotate-secret answers a new secret; for 24 h deliveries carry both signatures, then only the new one', async () => {
    const hook = await create();
    const rotated = await call('POST', `/v1/webhooks/${hook.id}/rotate-secret`, { token: practice.adminToken });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    const { secret, ...rest } = rotated.body.data;
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(hook.secret);
    expect(rest.version).toBe(2);
    expect(
      JSON.stringify((await call('GET', `/v1/webhooks/${hook.id}`, { token: practice.adminToken })).body),
    ).not.toContain('secret');

    const attempt = (await call('POST', `/v1/webhooks/${hook.id}/test`, { token: practice.adminToken })).body.data;
    const request = receiver.requests.find((r) => r.headers['webhook-id'] === attempt.event_id)!;
    expect(request.headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(secret).verify(request.body, request.headers)).toBeTruthy();
    expect(new Webhook(hook.secret).verify(request.body, request.headers)).toBeTruthy();

    // 25 hours on, the previous secret no longer signs.
    const later = new Date(Date.now() + 25 * 3600_000);
    const stored = (await findWebhook(practice.medspaId, hook.id))!;
    const entry = await deliverOnce(
      stored,
      {
        id: 'evt_later',
        type: 'webhook.test',
        created_at: later.toISOString(),
        medspa_id: practice.medspaId,
        data: { object: {} },
      },
      1,
      { now: () => later },
    );
    expect(entry.status).toBe('succeeded');
    const lateRequest = receiver.requests.find((r) => r.headers['webhook-id'] === 'evt_later')!;
    expect(lateRequest.headers['webhook-signature']).toBe(
      new Webhook(secret).sign('evt_later', later, lateRequest.body),
    );

    // A second rotation keeps only the secret it replaces.
    const again = (await call('POST', `/v1/webhooks/${hook.id}/rotate-secret`, { token: practice.adminToken })).body
      .data;
    const third = (await call('POST', `/v1/webhooks/${hook.id}/test`, { token: practice.adminToken })).body.data;
    const thirdRequest = receiver.requests.find((r) => r.headers['webhook-id'] === third.event_id)!;
    expect(new Webhook(again.secret).verify(thirdRequest.body, thirdRequest.headers)).toBeTruthy();
    expect(new Webhook(secret).verify(thirdRequest.body, thirdRequest.headers)).toBeTruthy();
    expect(() => new Webhook(hook.secret).verify(thirdRequest.body, thirdRequest.headers)).toThrow();
  });

  it('never logs a secret or an event body', async () => {
    const lines: string[] = [];
    for (const level of ['debug', 'info', 'warn', 'error'] as const) {
      vi.spyOn(logger, level).mockImplementation(((...args: unknown[]) => {
        lines.push(JSON.stringify(args));
      }) as never);
    }
    const hook = await create();
    const rotated = (await call('POST', `/v1/webhooks/${hook.id}/rotate-secret`, { token: practice.adminToken })).body
      .data;
    receiver.behave(() => ({ status: 500 }));
    await call('POST', `/v1/webhooks/${hook.id}/test`, { token: practice.adminToken });
    expect(lines.length).toBeGreaterThan(0);
    const logged = lines.join('\n');
    for (const secret of [hook.secret, rotated.secret]) expect(logged).not.toContain(secret.slice('whsec_'.length, 30));
    expect(logged).not.toContain('your endpoint is reachable');
    expect(logged).not.toContain(receiver.origin);
  });
});
