import { beforeAll, describe, expect, it } from 'vitest';
import * as appointmentRoutes from '../../lib/routes/appointments';
import * as treatmentRoutes from '../../lib/routes/treatment-records';
import { changeStatus } from '../../lib/use-cases/appointment-status';
import {
  amendTreatmentRecord,
  readTreatmentRecord,
  recordTreatment,
  signTreatmentRecord,
} from '../../lib/use-cases/treatment-records';
import { call } from '../fixtures/api';
import { adminCaller, belowHttp } from '../fixtures/below-http';
import { makeClient, makeLot, makeProduct } from '../fixtures/builders';
import { addDays } from '../fixtures/dates';
import { eventTap } from '../fixtures/stream';
import { BOOKING_DAY, booked, makeScene, nyTime, type Scene } from '../fixtures/scheduling';
import { useTableStream } from '../fixtures/table-stream';

/**
 * Recall end to end (API reference, clinical records): treatment records written, replaced, signed
 * and amended through their use cases take stock by lot; a lot's exposures then equal a
 * brute-force join over every current record of the test, and its recall sends one `lot.recalled`
 * and one `client.lot_exposure` per exposed client, from the table's real stream.
 */

useTableStream();

let scene: Scene;
let product: { id: string };
let lotA: { id: string };
let lotB: { id: string };
const appointments: { id: string; client_id: string }[] = [];

const caller = () => adminCaller(scene.practice);
const by = (r: { caller: { clientId: string }; now: Date; writes: unknown }) => ({
  now: r.now,
  by: r.caller.clientId,
  writes: r.writes as never,
});

async function checkedIn(day: number, clientId: string) {
  const appointment = await booked(scene, {
    client_id: clientId,
    scheduled_at: nyTime(addDays(BOOKING_DAY, day), '10:00'),
  });
  for (const status of ['confirmed', 'checked_in'] as const)
    await belowHttp(
      appointmentRoutes.updateAppointmentStatus,
      caller(),
      { params: { id: appointment.id }, body: { status } },
      ({ caller, params, body, now, writes }) => changeStatus(caller.medspaId, params.id, body.status, { now, writes }),
    );
  appointments.push({ id: appointment.id, client_id: clientId });
  return appointment.id as string;
}

const takes = (...lines: [lot: { id: string }, quantity: number][]) => ({
  summary: 'Toxin',
  products_used: lines.map(([lot, quantity]) => ({ product_id: product.id, lot_id: lot.id, quantity })),
});

const put = (id: string, body: Record<string, unknown>) =>
  belowHttp(appointmentRoutes.recordTreatment, caller(), { params: { id }, body }, (r) =>
    recordTreatment(r.caller.medspaId, r.params.id, r.body, by(r)),
  );
const sign = (id: string) =>
  belowHttp(treatmentRoutes.signTreatmentRecord, caller(), { params: { id } }, (r) =>
    signTreatmentRecord(r.caller.medspaId, r.params.id, by(r)),
  );
const amend = (id: string, record: Record<string, unknown>) =>
  belowHttp(treatmentRoutes.amendTreatmentRecord, caller(), { params: { id }, body: { reason: 'dose', record } }, (r) =>
    amendTreatmentRecord(r.caller.medspaId, r.params.id, r.body, by(r)),
  );

/** The brute force: every appointment's current record, its units per lot summed. */
async function joinedExposures(lotId: string) {
  const rows: { appointment_id: string; client_id: string; quantity: number }[] = [];
  for (const appointment of appointments) {
    const record = await readTreatmentRecord(scene.practice.medspaId, appointment.id).catch(() => null);
    const items = (record?.products_used ?? []) as { lot_id?: string | null; quantity?: number }[];
    const quantity = items.filter((item) => item.lot_id === lotId).reduce((sum, item) => sum + (item.quantity ?? 0), 0);
    if (quantity > 0) rows.push({ appointment_id: appointment.id, client_id: appointment.client_id, quantity });
  }
  return rows.sort((a, b) => a.appointment_id.localeCompare(b.appointment_id));
}

async function listedExposures(lotId: string) {
  const rows: any[] = [];
  let cursor: string | null = null;
  do {
    const after: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const page = await call('GET', `/v1/lots/${lotId}/exposures?limit=2${after}`, { token: scene.practice.adminToken });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    rows.push(...page.body.data);
    cursor = page.body.pagination.next_cursor;
  } while (cursor);
  return rows
    .map((row) => ({ appointment_id: row.appointment_id, client_id: row.client.id, quantity: row.quantity }))
    .sort((a, b) => a.appointment_id.localeCompare(b.appointment_id));
}

beforeAll(async () => {
  scene = await makeScene();
  product = await makeProduct(scene.practice, { tracks_lots: true, quantity_on_hand: 0 });
  [lotA, lotB] = await Promise.all([
    makeLot(scene.practice, product.id, { lot_number: 'C1234A5' }, 40),
    makeLot(scene.practice, product.id, { lot_number: 'C9999Z1' }, 40),
  ]);
});

describe('recall from treatment records', () => {
  it("a lot's exposures are the join over every current record; its recall tells each exposed client once", async () => {
    const [ana, ben, cy] = await Promise.all([0, 1, 2].map(() => makeClient(scene.practice)));
    // Ana twice from A; Ben from A and B; Cy from B, then replaced to take from A; a signed record
    // amended to drop A; a draft replaced to take nothing.
    const a1 = await checkedIn(0, ana.id);
    const a2 = await checkedIn(1, ana.id);
    const b1 = await checkedIn(2, ben.id);
    const c1 = await checkedIn(3, cy.id);
    const c2 = await checkedIn(4, cy.id);
    const d1 = await checkedIn(5, ben.id);
    await put(a1, takes([lotA, 2]));
    await put(a2, takes([lotA, 1], [lotA, 1]));
    await put(b1, takes([lotA, 1], [lotB, 3]));
    await put(c1, takes([lotB, 3]));
    await put(c1, takes([lotA, 1]));
    await put(c2, takes([lotA, 4]));
    await sign(c2);
    await amend(c2, takes([lotB, 4]));
    await put(d1, takes([lotA, 5]));
    await put(d1, { summary: 'Consult only' });

    for (const lot of [lotA, lotB]) expect(await listedExposures(lot.id)).toEqual(await joinedExposures(lot.id));
    expect((await joinedExposures(lotA.id)).map((row) => row.appointment_id).sort()).toEqual([a1, a2, b1, c1].sort());

    const tap = eventTap();
    await tap.drain();
    const recalled = await call('POST', `/v1/lots/${lotA.id}/recall`, {
      token: scene.practice.adminToken,
      body: { reason: 'Manufacturer notice' },
    });
    expect(recalled.status, JSON.stringify(recalled.body)).toBe(200);
    // The lot's record fans out; the notices' records are the client events (a second drain).
    const events = [...(await tap.drain()), ...(await tap.drain())];
    const ofLot = (type: string) =>
      events.filter(
        (event) =>
          event.type === type &&
          ((event.data.object as any).lot?.id === lotA.id || (event.data.object as any).id === lotA.id),
      );
    expect(ofLot('lot.recalled')).toHaveLength(1);
    const notices = ofLot('client.lot_exposure');
    expect(notices.map((event) => (event.data.object as any).client.id).sort()).toEqual([ana.id, ben.id, cy.id].sort());
    const anas = notices.find((event) => (event.data.object as any).client.id === ana.id)!;
    expect((anas.data.object as any).exposures.map((e: any) => e.appointment_id).sort()).toEqual([a1, a2].sort());
  });
});
