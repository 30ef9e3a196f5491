import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, FrameLocator, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalPipeline } from '../../infra/local/pipeline';
import { resetConfig } from '../../lib/config';
import { call } from '../fixtures/api';
import { launchChromium } from '../fixtures/chromium';
import { startLocalApi, type LocalApi } from '../fixtures/local-api';
import { startReceiver, type Receiver } from '../fixtures/receiver';
import { makeScene, type Scene } from '../fixtures/scheduling';
import { useTableStream } from '../fixtures/table-stream';
import { waitFor } from '../fixtures/wait';

useTableStream();

/**
 * Online booking end to end, in Debian's chromium against the local server as `npm start` runs
 * it: the page at /book (and through book.js on another site) books the first free time through
 * the accessible names of the API reference; the staff API shows the appointment with
 * `source: online`, and the webhook receiver gets `appointment.created` with the manage token.
 */
const visible = (locator: Locator) => locator.waitFor({ state: 'visible', timeout: 20_000 });

describe('online booking in chromium, against the local server', () => {
  let browser: Browser;
  let api: LocalApi | undefined;
  let base: string;
  let site: Server;
  let siteUrl: string;
  let receiver: Receiver;
  let pipeline: Awaited<ReturnType<typeof startLocalPipeline>>;
  let scene: Scene;
  let key: string;
  let foreignKey: string;
  const contexts: BrowserContext[] = [];

  const staff = (method: string, url: string, body?: unknown) =>
    call(method, url, { token: scene.practice.adminToken, body });

  beforeAll(async () => {
    process.env.ALLOW_LOCAL_WEBHOOKS = 'true';
    resetConfig();
    [browser, receiver, scene] = await Promise.all([launchChromium(), startReceiver(), makeScene()]);
    pipeline = await startLocalPipeline({ sweepEveryMs: 60_000 });
    api = await startLocalApi();
    base = api.url;
    // An integrator's site on another port, embedding the page with the key in its query.
    site = createServer((req, res) => {
      const embedKey = new URL(req.url ?? '/', 'http://x').searchParams.get('key');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Spa</title></head><body><h1>Our spa</h1><script src="${base}/book.js" data-key="${embedKey}"></script></body></html>`,
      );
    });
    siteUrl = `http://127.0.0.1:${await new Promise<number>((resolve) => site.listen(0, '127.0.0.1', () => resolve((site.address() as AddressInfo).port)))}`;

    // The three steps of docs/guide/online-booking.md: enable online booking, create a key, paste the script tag.
    const enabled = await staff('PATCH', '/v1/practice', { online_booking: { enabled: true } });
    expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
    const created = await staff('POST', '/v1/publishable-keys', { name: 'Website', allowed_origins: [siteUrl] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    key = created.body.data.key;
    foreignKey = (
      await staff('POST', '/v1/publishable-keys', { name: 'Elsewhere', allowed_origins: ['https://spa.example'] })
    ).body.data.key;
    const hook = await staff('POST', '/v1/webhooks', { url: receiver.url('/hooks'), events: ['appointment.created'] });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
  }, 120_000);

  afterAll(async () => {
    while (contexts.length) await contexts.pop()!.close();
    await browser?.close();
    await pipeline?.stop();
    await receiver?.close();
    await Promise.all([api?.close(), new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve()))]);
    delete process.env.ALLOW_LOCAL_WEBHOOKS;
    resetConfig();
  });

  async function open(url: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US' });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(url);
    return page;
  }

  /** The scene's service, its first free time, the client's details, Book: answers the booked appointment's id. */
  async function bookFirstTime(scope: Page | FrameLocator, email: string): Promise<string> {
    await scope
      .getByRole('group', { name: 'Services', exact: true })
      .getByRole('button', { name: new RegExp(scene.service.name) })
      .click();
    const firstTime = scope.getByRole('group', { name: 'Available times', exact: true }).getByRole('button').first();
    await visible(firstTime);
    await firstTime.click();
    await scope.getByLabel('First name', { exact: true }).fill('Robin');
    await scope.getByLabel('Last name', { exact: true }).fill('Online');
    await scope.getByLabel('Email', { exact: true }).fill(email);
    await scope.getByLabel('Phone', { exact: true }).fill('+1 555 0100');
    await scope.getByRole('button', { name: 'Book', exact: true }).click();
    await visible(scope.getByRole('heading', { name: 'Booked' }));
    const manage = scope.getByRole('link', { name: 'Manage your booking' });
    await visible(manage);
    const href = new URL((await manage.getAttribute('href'))!, base);
    expect(href.hash).toMatch(/^#token=/);
    return href.searchParams.get('booking')!;
  }

  it('books the first free time at /book; the staff API shows it online and the webhook carries the manage token', async () => {
    const page = await open(`${base}/book?key=${key}`);
    const id = await bookFirstTime(page, `robin.${Date.now()}@example.com`);

    const appointment = await staff('GET', `/v1/appointments/${id}`);
    expect(appointment.status).toBe(200);
    expect(appointment.body.data).toMatchObject({
      id,
      source: 'online',
      service_id: scene.service.id,
      status: 'scheduled',
    });

    const delivered = await waitFor('appointment.created with its manage token', () =>
      receiver.accepted.find((request) => JSON.parse(request.body).data?.object?.id === id),
    );
    const event = JSON.parse(delivered.body);
    expect(event.type).toBe('appointment.created');
    expect(event.data.manage_token).toEqual(expect.any(String));
    // The token manages that booking through the public API.
    const managed = await call('GET', `/v1/public/bookings/${id}`, {
      headers: { 'x-publishable-key': key, 'x-booking-token': event.data.manage_token },
    });
    expect(managed.status, JSON.stringify(managed.body)).toBe(200);
    expect(managed.body.data).toMatchObject({ appointment_id: id, status: 'scheduled' });
  }, 120_000);

  it('books through the book.js embed on a site the key allows', async () => {
    const page = await open(`${siteUrl}/?key=${key}`);
    const frame = page.frameLocator('iframe[title="Book an appointment"]');
    const id = await bookFirstTime(frame, `embed.${Date.now()}@example.com`);
    expect((await staff('GET', `/v1/appointments/${id}`)).body.data).toMatchObject({ id, source: 'online' });
  }, 120_000);

  it('is not framed on a site the key does not allow (frame-ancestors)', async () => {
    const page = await open(`${siteUrl}/?key=${foreignKey}`);
    await page.locator('iframe').waitFor();
    const frame = page.frames().find((candidate) => candidate !== page.mainFrame())!;
    await expect.poll(() => frame.url(), { timeout: 20_000 }).toMatch(/^chrome-error:/);
  }, 120_000);
});
