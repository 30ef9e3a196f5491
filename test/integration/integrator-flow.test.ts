import { mkdtempSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalServer, listen } from '../../infra/local/http-server';
import { ensureDemoPractice, type DemoCredentials } from '../../infra/local/seed';
import { MedspaApiError, MedspaClient } from '../../lib/client/index';
import { addDays, daysFromToday, NY } from '../fixtures/dates';
import { operationFor, responseSchema, schemaValidator } from '../fixtures/openapi-validator';

interface Exchange {
  method: string;
  path: string;
  status: number;
  body: string;
}

/**
 * The quick start as an integrator runs it with the typed client (README, docs/guide/client.md):
 * the demo practice of `npm start`, the typed client over real HTTP (token, search availability, book, confirm, check in, complete, pay), and
 * every answer of the flow validated against the OpenAPI document the server serves.
 */
describe('quick start with the typed client against the local server', () => {
  let server: Server;
  let baseUrl: string;
  let demo: DemoCredentials;
  const exchanges: Exchange[] = [];

  const recordingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const url = new URL(String(input));
    exchanges.push({
      method: init?.method ?? 'GET',
      path: url.pathname,
      status: response.status,
      body: await response.clone().text(),
    });
    return response;
  };

  beforeAll(async () => {
    server = createLocalServer();
    baseUrl = `http://127.0.0.1:${await listen(server, 0)}`;
    demo = await ensureDemoPractice(mkdtempSync(join(tmpdir(), 'quick-start-')));
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('books, confirms, checks in, completes and pays for a first appointment; every answer matches the document', async () => {
    const client = new MedspaClient({
      baseUrl,
      clientId: demo.client_id,
      clientSecret: demo.client_secret,
      fetch: recordingFetch,
    });

    // The demo practice comes with a week of appointments: the first list is not empty.
    const week = await client.getAppointments();
    expect(week.data.length).toBeGreaterThan(0);

    const services = await client.api.listServices();
    const botox = services.data.find((service) => service.name === 'Botox')!;
    let olivia: { id: string } | undefined;
    for await (const person of client.paginate('listClients', { query: { q: 'olivia' } })) olivia ??= person;
    expect(olivia).toBeDefined();

    const from = daysFromToday(1, NY);
    const found = await client.searchAvailability({ serviceId: botox.id, from, to: addDays(from, 6) });
    const entry = found.data.find((candidate) => candidate.slots.length > 0)!;
    const slot = entry.slots[0];

    const booked = await client.createAppointment({
      client_id: olivia!.id,
      service_id: botox.id,
      provider_id: entry.provider.id,
      scheduled_at: slot.slot_start,
      source: 'online',
    });
    expect(booked.data).toMatchObject({
      status: 'scheduled',
      scheduled_at: slot.slot_start,
      price_cents: botox.price_cents,
    });

    // The same slot again is refused, with the contract's code.
    const taken = await client
      .createAppointment({
        client_id: olivia!.id,
        service_id: botox.id,
        provider_id: entry.provider.id,
        scheduled_at: slot.slot_start,
      })
      .catch((error: unknown) => error);
    expect(taken).toBeInstanceOf(MedspaApiError);
    expect(taken).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', status: 409 });

    for (const status of ['confirmed', 'checked_in', 'in_progress', 'completed'] as const) {
      expect((await client.updateAppointmentStatus(booked.data.id, status)).data.status).toBe(status);
    }
    const paid = await client.api.createPayment({
      body: {
        client_id: olivia!.id,
        appointment_id: booked.data.id,
        amount_cents: booked.data.price_cents,
        method: 'card',
      },
    });
    expect(paid.data).toMatchObject({ amount_cents: botox.price_cents, currency: 'USD' });

    const detail = await client.getAppointment(booked.data.id);
    expect(detail.data).toMatchObject({ status: 'completed', client: { id: olivia!.id } });
    const person = await client.api.getClient({ params: { id: olivia!.id } });
    expect(person.data.total_spent_cents).toBeGreaterThanOrEqual(botox.price_cents);

    // Every answer of the flow, against the document this server serves.
    const document = (await (await fetch(`${baseUrl}/v1/openapi.json`)).json()) as Record<string, any>;
    expect(document.servers[0].url).toBe(baseUrl);
    const validator = schemaValidator(document);
    expect(exchanges.length).toBeGreaterThanOrEqual(12);
    for (const exchange of exchanges) {
      const found = operationFor(document, exchange.method, exchange.path);
      expect(found, `${exchange.method} ${exchange.path}`).toBeDefined();
      const schema = responseSchema(document, found!.operation, exchange.status);
      expect(schema, `${found!.operation.operationId} ${exchange.status} is not documented`).toBeDefined();
      expect(
        validator.check(schema!, JSON.parse(exchange.body)),
        `${found!.operation.operationId} ${exchange.status}`,
      ).toEqual([]);
    }
    const operations = new Set(exchanges.map((e) => operationFor(document, e.method, e.path)!.operation.operationId));
    expect([...operations].sort()).toEqual(
      [
        'createAppointment',
        'createPayment',
        'createToken',
        'getAppointment',
        'getAppointments',
        'getClient',
        'listClients',
        'listServices',
        'searchAvailability',
        'updateAppointmentStatus',
      ].sort(),
    );
  }, 60_000);
});
