/**
 * The load and soak phase of `npm run bench`: autocannon drives the local HTTP server for
 * LOAD_SECONDS (default 60) with a mixed workload from several credentials, 70% reads, 20% creates
 * (bookings at random free slots, some with a room or equipment, and retail sales) and 10% status
 * moves. It prints requests/s, latency p50/p99 and the outcome of every kind of call; only 409s
 * (a slot taken meanwhile, a status already moved, stock sold out) may be refusals. Then it reads
 * the whole practice back from the table and checks the invariants: no overlapping active
 * appointments on a provider, room or equipment, claims exactly those of the active appointments,
 * no negative stock and an exact ledger.
 */
import autocannon from 'autocannon';
import type { Role } from '../../lib/auth/roles';
import { MedspaClient } from '../../lib/client/index';
import { createCredential } from '../../lib/use-cases/auth';
import { createPracticeWithAdmin } from '../../lib/use-cases/practice';
import { addDays, futureWeekday, utc } from '../fixtures/dates';
import { bookingViolations, readPractice, stockViolations } from '../fixtures/invariants';

const NEXT_STATUS: Record<string, string[]> = {
  scheduled: ['confirmed', 'confirmed', 'confirmed', 'cancelled'],
  confirmed: ['checked_in', 'checked_in', 'cancelled'],
  checked_in: ['in_progress', 'in_progress', 'no_show'],
  in_progress: ['completed'],
};

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)];

interface Op {
  kind: string;
  method: string;
  path: string;
  role: Role;
  body?: unknown;
  /** What to learn from a success. */
  learn?: (body: string) => void;
}

export interface LoadReport {
  ok: boolean;
  lines: string[];
}

export async function runLoad(baseUrl: string, seconds: number, connections = 8): Promise<LoadReport> {
  const { practice, credential } = await createPracticeWithAdmin(
    { name: 'Load Spa', time_zone: 'America/New_York' },
    new Date(),
  );
  const medspa = new MedspaClient({ baseUrl, clientId: credential.client_id, clientSecret: credential.client_secret });
  const allDay = Object.fromEntries(
    ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [{ start: '00:00', end: '24:00' }]]),
  );
  const providers: string[] = [];
  for (let i = 0; i < 8; i += 1)
    providers.push(
      (await medspa.api.createProvider({ body: { first_name: 'Load', last_name: `P${i}`, working_hours: allDay } }))
        .data.id,
    );
  const rooms: string[] = [];
  for (let i = 0; i < 3; i += 1) rooms.push((await medspa.api.createRoom({ body: { name: `Room ${i}` } })).data.id);
  const equipment: string[] = [];
  for (let i = 0; i < 2; i += 1)
    equipment.push((await medspa.api.createEquipment({ body: { name: `Laser ${i}` } })).data.id);
  const serviceId = (
    await medspa.api.createService({
      body: { name: 'Peel', category: 'skin', price_cents: 9000, duration_minutes: 30, provider_ids: providers },
    })
  ).data.id;
  const clients: string[] = [];
  for (let i = 0; i < 10; i += 1)
    clients.push((await medspa.api.createClient({ body: { first_name: 'Load', last_name: `C${i}` } })).data.id);
  const products: string[] = [];
  for (let i = 0; i < 3; i += 1) {
    products.push(
      (
        await medspa.api.createProduct({
          body: {
            name: `Serum ${i}`,
            sku: `LOAD-${i}-${Date.now()}`,
            price_cents: 3000,
            quantity_on_hand: 12,
            low_stock_threshold: 5,
          },
        })
      ).data.id,
    );
  }

  // Several credentials: the admin's, plus a manager, two front desks and a provider.
  const tokens: Partial<Record<Role, string[]>> = {};
  const exchange = async (clientId: string, clientSecret: string) => {
    const response = await fetch(`${baseUrl}/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: clientId, client_secret: clientSecret }),
    });
    return ((await response.json()) as { access_token: string }).access_token;
  };
  tokens.admin = [await exchange(credential.client_id, credential.client_secret)];
  for (const role of ['manager', 'front_desk', 'front_desk', 'provider'] as const) {
    const created = await createCredential(practice.id, { name: `load ${role}`, role }, new Date());
    (tokens[role] ??= []).push(await exchange(created.client_id, created.client_secret));
  }

  // Five days some weeks ahead; any quarter hour of the local day, 15 to 60 minutes long.
  const firstDay = futureWeekday('mon', 3);
  const days = Array.from({ length: 5 }, (_, i) => addDays(firstDay, i));
  const taken = new Set<string>();
  const appointments = new Map<string, string>();
  const appointmentIds: string[] = [];

  const freeSlot = () => {
    for (let tries = 0; tries < 20; tries += 1) {
      const provider = pick(providers);
      const day = pick(days);
      const quarter = Math.floor(Math.random() * 92);
      const key = `${provider}|${day}|${quarter}`;
      if (taken.has(key)) continue;
      const hhmm = `${String(Math.floor(quarter / 4)).padStart(2, '0')}:${String((quarter % 4) * 15).padStart(2, '0')}`;
      return { provider, key, scheduledAt: utc(day, hhmm) };
    }
    return null;
  };

  const nextOp = (): Op => {
    const roll = Math.random();
    if (roll < 0.7) {
      const read = Math.random();
      const role = pick(['admin', 'manager', 'front_desk', 'provider'] as const);
      if (read < 0.3) {
        const [from, to] = [pick(days), pick(days)].sort();
        return {
          kind: 'list appointments',
          method: 'GET',
          path: `/v1/appointments?from=${from}&to=${to}&limit=20`,
          role,
        };
      }
      if (read < 0.55 && appointmentIds.length)
        return { kind: 'get appointment', method: 'GET', path: `/v1/appointments/${pick(appointmentIds)}`, role };
      if (read < 0.8)
        return {
          kind: 'slots',
          method: 'GET',
          path: `/v1/providers/${pick(providers)}/slots?date=${pick(days)}&duration_minutes=30`,
          role,
        };
      if (read < 0.9) return { kind: 'list clients', method: 'GET', path: '/v1/clients?limit=20', role };
      return {
        kind: 'get product',
        method: 'GET',
        path: `/v1/products/${pick(products)}`,
        role: pick(['admin', 'manager', 'front_desk'] as const),
      };
    }
    if (roll < 0.9 || appointmentIds.length === 0) {
      const slot = Math.random() < 0.8 ? freeSlot() : null;
      if (!slot) {
        // Retail: mostly sales (which run the stock out: 409 INSUFFICIENT_STOCK), some receipts.
        const receipt = Math.random() < 0.1;
        return {
          kind: receipt ? 'stock receipt' : 'stock sale',
          method: 'POST',
          path: `/v1/products/${pick(products)}/stock-adjustments`,
          role: receipt ? pick(['admin', 'manager'] as const) : pick(['front_desk', 'manager'] as const),
          body: receipt ? { delta: 3, reason: 'received' } : { delta: -1, reason: 'sale' },
        };
      }
      const body: Record<string, unknown> = {
        client_id: pick(clients),
        service_id: serviceId,
        provider_id: slot.provider,
        scheduled_at: slot.scheduledAt,
        duration_minutes: pick([15, 30, 45, 60]),
      };
      if (Math.random() < 0.3) body.room_id = pick(rooms);
      if (Math.random() < 0.2) body.equipment_id = pick(equipment);
      taken.add(slot.key);
      return {
        kind: 'create appointment',
        method: 'POST',
        path: '/v1/appointments',
        role: pick(['admin', 'manager', 'front_desk'] as const),
        body,
        learn: (text) => {
          const created = JSON.parse(text).data as { id: string; status: string };
          appointments.set(created.id, created.status);
          appointmentIds.push(created.id);
        },
      };
    }
    const id = pick(appointmentIds);
    const next = NEXT_STATUS[appointments.get(id) ?? ''] ?? ['confirmed'];
    const status = pick(next);
    return {
      kind: 'status move',
      method: 'PATCH',
      path: `/v1/appointments/${id}/status`,
      role: pick(['admin', 'front_desk', 'provider'] as const),
      body: { status },
      learn: () => appointments.set(id, status),
    };
  };

  const outcomes = new Map<string, number>();
  const count = (key: string) => outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
  let unexpected = 0;

  const result = await autocannon({
    url: baseUrl,
    connections,
    duration: seconds,
    timeout: 30,
    requests: [
      {
        setupRequest: (request, context) => {
          const op = nextOp();
          context.op = op;
          return {
            ...request,
            method: op.method,
            path: op.path,
            headers: {
              authorization: `Bearer ${pick(tokens[op.role]!)}`,
              ...(op.body ? { 'content-type': 'application/json' } : {}),
            },
            body: op.body ? JSON.stringify(op.body) : undefined,
          };
        },
        onResponse: (status, body, context) => {
          const op = context.op as Op;
          if (status < 300) {
            count(`${op.kind}: ${status}`);
            op.learn?.(body);
            return;
          }
          let code = '?';
          try {
            code = JSON.parse(body).error.code;
          } catch {
            // not the envelope: counted as unexpected below
          }
          count(`${op.kind}: ${status} ${code}`);
          if (status !== 409) unexpected += 1;
        },
      },
    ],
  });

  const lines = [
    `load: ${seconds} s, ${connections} connections, ${Object.values(tokens).flat().length} credentials (mix: 70% reads, 20% creates (bookings, sales), 10% status moves)`,
    `load: ${result.requests.total} requests, ${result.requests.average.toFixed(1)} req/s, latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
    ...[...outcomes.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, n]) => `  ${key.padEnd(48)} ${String(n).padStart(7)}`),
    `load: errors other than 409: ${unexpected + result.errors + result.timeouts} (${unexpected} answers, ${result.errors} connection errors, ${result.timeouts} timeouts)`,
  ];

  // autocannon stops counting at the deadline, not the server: requests still in flight commit
  // after it. A Scan is not a snapshot, so read until two reads a second apart agree.
  let stored = await readPractice(practice.id);
  for (let settled = false, reads = 0; !settled && reads < 30; reads += 1) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const again = await readPractice(practice.id);
    settled = JSON.stringify(again) === JSON.stringify(stored);
    stored = again;
  }
  const violations = [
    ...bookingViolations(stored.appointments, stored.claims),
    ...stockViolations(stored.products, stored.ledger),
  ];
  const active = stored.appointments.filter((a) =>
    ['scheduled', 'confirmed', 'checked_in', 'in_progress'].includes(a.status),
  ).length;
  lines.push(
    `invariants: ${stored.appointments.length} appointments (${active} active), ${stored.claims.length} claim buckets, ${stored.products.length} products (stock ${stored.products.map((p) => p.quantity_on_hand).join(', ')}), ${stored.ledger.length} ledger entries -> ${violations.length === 0 ? 'no overlaps, no orphan or missing claims, no negative stock, exact ledger (ok)' : `${violations.length} VIOLATIONS`}`,
    ...violations.slice(0, 20).map((v) => `  ${v}`),
  );
  return { ok: unexpected + result.errors + result.timeouts === 0 && violations.length === 0, lines };
}
