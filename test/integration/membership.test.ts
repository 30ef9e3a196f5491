import { beforeAll, describe, expect, it } from 'vitest';
import { updateClientWithIndex } from '../../lib/db/clients';
import { clientSearchTerms } from '../../lib/domain/client-search';
import { getClient, listClients } from '../../lib/use-cases/clients';
import { changePlanStatus, sellPlan } from '../../lib/use-cases/client-plans';
import { call, makePractice, type TestPractice } from '../fixtures/api';
import { makeClient, makeService } from '../fixtures/builders';
import { counted } from '../fixtures/ddb-calls';
import { changePlanStatusOf, makePlan, sellPlanTo } from '../fixtures/plans';

/**
 * A client's membership fields follow their membership plan (API reference, section 12,
 * "Clients"): set by the sale, moved by pause / resume / cancel in the plan's own write, refused
 * to a PATCH while a plan governs them; packages never touch them.
 */

let practice: TestPractice;
let facial: { id: string };
let gold: { id: string };
let silver: { id: string };
let laserPack: { id: string };

beforeAll(async () => {
  practice = await makePractice();
  facial = await makeService(practice);
  const membership = (name: string) =>
    makePlan(practice, {
      kind: 'membership',
      name,
      term_months: 1,
      benefits: [{ service_id: facial.id, quantity: 2 }],
    });
  [gold, silver, laserPack] = await Promise.all([
    membership('Glow Gold'),
    membership('Glow Silver'),
    makePlan(practice, { kind: 'package', name: 'Facial x6', benefits: [{ service_id: facial.id, quantity: 6 }] }),
  ]);
});

const clientOf = (id: string) => getClient(practice.medspaId, id, new Date());
const membershipOf = async (id: string) => {
  const { membership_status, membership_tier, membership_plan_id } = await clientOf(id);
  return { membership_status, membership_tier, membership_plan_id };
};
const sell = async (clientId: string, plan: { id: string }) =>
  (await sellPlanTo(practice, clientId, { plan_id: plan.id })).id as string;
const patch = (id: string, body: object) => call('PATCH', `/v1/clients/${id}`, { token: practice.adminToken, body });
/** Ids of the clients a search by `q` finds with this membership status (the search index's filter). */
const foundBy = async (q: string, status: 'active' | 'paused' | 'cancelled' | 'none') =>
  (await listClients(practice.medspaId, { limit: 100, q, membership_status: status }, new Date())).data.map(
    (c) => c.id,
  );
const listedAs = async (status: 'active' | 'paused' | 'cancelled' | 'none') =>
  (await listClients(practice.medspaId, { limit: 100, membership_status: status }, new Date())).data.map((c) => c.id);

describe('membership fields follow the membership plan', () => {
  it('a sale sets active with the plan name (search and list filters too); a package touches nothing', async () => {
    const client = await makeClient(practice, { last_name: 'Sale-follow' });
    await sell(client.id, laserPack);
    expect(await membershipOf(client.id)).toEqual({
      membership_status: 'none',
      membership_tier: null,
      membership_plan_id: null,
    });
    const before = (await clientOf(client.id)).version;
    const sale = await counted(() => sellPlan(practice.medspaId, client.id, { plan_id: gold.id }, new Date()));
    // The client, plan and practice in one batched read; the membership goes in the sale's one transaction.
    expect(sale.calls).toEqual({ BatchGetItemCommand: 1, TransactWriteItemsCommand: 1 });
    const planId = sale.result.id;
    const after = await clientOf(client.id);
    expect(after).toMatchObject({
      membership_status: 'active',
      membership_tier: 'Glow Gold',
      membership_plan_id: planId,
    });
    // A change of the client like a PATCH: its version moves (so `client.updated` goes out).
    expect(after.version).toBe(before + 1);
    expect(await foundBy('sale-follow', 'active')).toEqual([client.id]);
    expect(await foundBy('sale-follow', 'none')).toEqual([]);
    expect(await listedAs('active')).toContain(client.id);
    // Over HTTP, as an integrator reads it.
    const got = await call('GET', `/v1/clients/${client.id}`, { token: practice.adminToken });
    expect(got.body.data).toMatchObject({ membership_status: 'active', membership_plan_id: planId });
  });

  it('pause, resume and cancel move it in the same write; cancelled makes the fields writable again', async () => {
    const client = await makeClient(practice, { last_name: 'Lifecycle' });
    const planId = await sell(client.id, gold);
    const paused = await counted(() => changePlanStatus(practice.medspaId, planId, 'pause', {}, new Date()));
    // The plan's partition, the practice (its zone places the plan on the due index), the client,
    // and one transaction for plan and client.
    expect(paused.calls).toEqual({ QueryCommand: 1, GetItemCommand: 2, TransactWriteItemsCommand: 1 });
    expect(await membershipOf(client.id)).toEqual({
      membership_status: 'paused',
      membership_tier: 'Glow Gold',
      membership_plan_id: planId,
    });
    expect(await foundBy('lifecycle', 'paused')).toEqual([client.id]);
    expect(await foundBy('lifecycle', 'active')).toEqual([]);

    await changePlanStatusOf(practice, planId, 'resume');
    expect((await membershipOf(client.id)).membership_status).toBe('active');
    expect(await foundBy('lifecycle', 'active')).toEqual([client.id]);

    const cancelled = await counted(() => changePlanStatus(practice.medspaId, planId, 'cancel', {}, new Date()));
    // Ending the governing plan also reads the client's other plans (gsi2) for one to take over.
    expect(cancelled.calls).toEqual({ QueryCommand: 2, GetItemCommand: 2, TransactWriteItemsCommand: 1 });
    expect(await membershipOf(client.id)).toEqual({
      membership_status: 'cancelled',
      membership_tier: 'Glow Gold',
      membership_plan_id: null,
    });
    expect(await foundBy('lifecycle', 'cancelled')).toEqual([client.id]);
    const patched = await patch(client.id, { membership_status: 'active', membership_tier: 'Elsewhere VIP' });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.data).toMatchObject({ membership_status: 'active', membership_tier: 'Elsewhere VIP' });
  });

  it('a package pause is still one Query and one UpdateItem, and leaves the client alone', async () => {
    const client = await makeClient(practice);
    const packageId = await sell(client.id, laserPack);
    const version = (await clientOf(client.id)).version;
    const paused = await counted(() => changePlanStatus(practice.medspaId, packageId, 'pause', {}, new Date()));
    expect(paused.calls).toEqual({ QueryCommand: 1, GetItemCommand: 1, UpdateItemCommand: 1 });
    expect(await clientOf(client.id)).toMatchObject({ membership_status: 'none', version });
  });

  it('while managed, a PATCH of membership_status or membership_tier is 409 and changes nothing; other fields still change', async () => {
    const client = await makeClient(practice, { last_name: 'Managed' });
    const planId = await sell(client.id, gold);
    const before = await clientOf(client.id);
    for (const body of [
      { membership_status: 'cancelled' },
      { membership_tier: 'Platinum' },
      { membership_tier: null },
      { membership_status: 'active', notes: 'also this' },
      { first_name: 'Renamed', membership_tier: 'Glow Gold' },
    ]) {
      const refused = await patch(client.id, body);
      expect(refused.status, JSON.stringify(body)).toBe(409);
      expect(refused.body.error.code).toBe('MEMBERSHIP_MANAGED_BY_PLAN');
    }
    expect(await clientOf(client.id)).toEqual(before);

    const notes = await patch(client.id, { notes: 'Prefers mornings', first_name: 'Robin' });
    expect(notes.status, JSON.stringify(notes.body)).toBe(200);
    expect(notes.body.data).toMatchObject({
      notes: 'Prefers mornings',
      first_name: 'Robin',
      membership_status: 'active',
      membership_plan_id: planId,
    });
    // The renamed client's new search entries keep the plan's membership.
    expect(await foundBy('robin managed', 'active')).toEqual([client.id]);
  });

  it('a cancel at term end keeps the membership active and managed until then', async () => {
    const client = await makeClient(practice);
    const planId = await sell(client.id, gold);
    const flagged = await changePlanStatusOf(practice, planId, 'cancel', { at_term_end: true });
    expect(flagged.status).toBe('active');
    expect(await membershipOf(client.id)).toEqual({
      membership_status: 'active',
      membership_tier: 'Glow Gold',
      membership_plan_id: planId,
    });
    expect((await patch(client.id, { membership_status: 'cancelled' })).status).toBe(409);
  });

  it('the most recently sold membership governs; when it ends, an earlier active or paused one takes over', async () => {
    const client = await makeClient(practice);
    const first = await sell(client.id, silver);
    const second = await sell(client.id, gold);
    expect(await membershipOf(client.id)).toEqual({
      membership_status: 'active',
      membership_tier: 'Glow Gold',
      membership_plan_id: second,
    });
    // A plan that does not govern moves without the client.
    await changePlanStatusOf(practice, first, 'pause');
    expect((await membershipOf(client.id)).membership_plan_id).toBe(second);
    await changePlanStatusOf(practice, second, 'cancel');
    expect(await membershipOf(client.id)).toEqual({
      membership_status: 'paused',
      membership_tier: 'Glow Silver',
      membership_plan_id: first,
    });
    await changePlanStatusOf(practice, first, 'cancel');
    expect(await membershipOf(client.id)).toEqual({
      membership_status: 'cancelled',
      membership_tier: 'Glow Silver',
      membership_plan_id: null,
    });
  });
});

describe('membership under concurrency', () => {
  it('N PATCHes of membership_status racing a sale: each committed before it or is refused, and the sale wins', async () => {
    const N = 8;
    const client = await makeClient(practice, { last_name: 'Racing' });
    const [sale, ...patches] = await Promise.all([
      sell(client.id, gold),
      ...Array.from({ length: N }, (_, i) => patch(client.id, { membership_status: i % 2 ? 'cancelled' : 'paused' })),
    ]);
    for (const response of patches) {
      expect([200, 409], JSON.stringify(response.body)).toContain(response.status);
      if (response.status === 409) expect(response.body.error.code).toBe('MEMBERSHIP_MANAGED_BY_PLAN');
    }
    expect(await membershipOf(client.id)).toEqual({
      membership_status: 'active',
      membership_tier: 'Glow Gold',
      membership_plan_id: sale,
    });
    expect(await foundBy('racing', 'active')).toEqual([client.id]);
    for (const other of ['paused', 'cancelled', 'none'] as const) expect(await foundBy('racing', other)).toEqual([]);
  });

  it("the PATCH's write itself is conditioned on no plan governing, not only its read", async () => {
    const client = await makeClient(practice, { last_name: 'Conditioned' });
    await sell(client.id, gold);
    const current = await clientOf(client.id);
    // A write at the current version (as if read just before the sale, with no version moved since).
    const written = await updateClientWithIndex(
      practice.medspaId,
      client.id,
      { membership_status: 'none' },
      {
        expectedVersion: current.version,
        now: new Date().toISOString(),
        before: clientSearchTerms(current),
        after: { terms: clientSearchTerms(current), membershipStatus: 'none' },
        unmanaged: true,
      },
    );
    expect(written.ok).toBe(false);
    expect(await clientOf(client.id)).toEqual(current);
  });

  it('concurrent sales settle on one governing plan, and the client shows exactly it', async () => {
    const client = await makeClient(practice, { last_name: 'Double-sale' });
    const sold = await Promise.all([sell(client.id, gold), sell(client.id, silver), sell(client.id, gold)]);
    const shown = await membershipOf(client.id);
    expect(sold).toContain(shown.membership_plan_id);
    const plan = await call('GET', `/v1/client-plans/${shown.membership_plan_id}`, { token: practice.adminToken });
    expect(shown).toMatchObject({ membership_status: 'active', membership_tier: plan.body.data.name });
  });

  it('cancelling the governing plan while its successor is paused: the client ends consistent with the plans', async () => {
    for (let round = 0; round < 3; round++) {
      const client = await makeClient(practice);
      const older = await sell(client.id, silver);
      const newer = await sell(client.id, gold);
      await Promise.all([changePlanStatusOf(practice, newer, 'cancel'), changePlanStatusOf(practice, older, 'pause')]);
      expect(await membershipOf(client.id)).toEqual({
        membership_status: 'paused',
        membership_tier: 'Glow Silver',
        membership_plan_id: older,
      });
    }
  });
});
