import { describe, expect, it } from 'vitest';
import {
  clientSeenCounter,
  FIRST_VISITS,
  planGeneration,
  planSaleFacts,
  providerCounter,
  serviceCounter,
  type CountedFacts,
  type GenerationState,
  type SourceChange,
} from '../../lib/domain/report-aggregates';
import { periodOf, reportRange } from '../../lib/domain/report-periods';
import { clientRetention, revenueReport, servicePopularity } from '../../lib/domain/reports';

const empty = (): GenerationState => ({ ledger: new Map(), clients: new Map() });

const appt = (overrides: Partial<Extract<CountedFacts, { kind: 'appointment' }>> = {}): CountedFacts => ({
  kind: 'appointment',
  date: '2031-03-09',
  client_id: 'c1',
  provider_id: 'p1',
  service_id: 's1',
  status: 'scheduled',
  price_cents: 10000,
  duration_minutes: 60,
  ...overrides,
});

const change = (version: number, facts: CountedFacts | null, recordKey = 'APPOINTMENT#a1'): SourceChange => ({
  recordKey,
  version,
  facts,
});

/** Applies plans one after another to a state, like committed transactions would. */
function run(steps: SourceChange[][]) {
  const state = empty();
  const totals = new Map<string, Record<string, number>>();
  const clientDays = new Map<string, Record<string, number>>();
  const add = (target: Map<string, Record<string, number>>, deltas: Map<string, Record<string, number>>) => {
    for (const [date, counters] of deltas) {
      const day = target.get(date) ?? {};
      for (const [name, n] of Object.entries(counters)) day[name] = (day[name] ?? 0) + n;
      target.set(date, day);
    }
  };
  for (const changes of steps) {
    const plan = planGeneration(state, changes);
    for (const [key, { entry }] of plan.ledger) state.ledger.set(key, entry);
    for (const [id, { dates, rev }] of plan.clients) state.clients.set(id, { dates, rev });
    add(totals, plan.totals);
    add(clientDays, plan.clientDays);
  }
  const nonZero = (map: Map<string, Record<string, number>>) =>
    Object.fromEntries(
      [...map]
        .map(([date, c]) => [date, Object.fromEntries(Object.entries(c).filter(([, n]) => n !== 0))])
        .filter(([, c]) => Object.keys(c as object).length),
    );
  return { state, totals: nonZero(totals), clientDays: nonZero(clientDays) };
}

describe('report counters (pure planning)', () => {
  it('a booking counts on its local day; completion adds revenue, minutes, provider and service counters', () => {
    const { totals, clientDays } = run([[change(1, appt())], [change(5, appt({ status: 'completed' }))]]);
    expect(totals['2031-03-09']).toEqual({
      booked: 1,
      [serviceCounter('s1', 'booked')]: 1,
      completed: 1,
      service_cents: 10000,
      booked_minutes: 60,
      [providerCounter('p1', 'completed')]: 1,
      [providerCounter('p1', 'revenue_cents')]: 10000,
      [providerCounter('p1', 'booked_minutes')]: 60,
      [serviceCounter('s1', 'completed')]: 1,
      [serviceCounter('s1', 'revenue_cents')]: 10000,
    });
    expect(clientDays['2031-03-09']).toEqual({ [clientSeenCounter('c1')]: 1, [FIRST_VISITS]: 1 });
  });

  it('a reprice after completion moves revenue by the difference; a reschedule moves the booking between days', () => {
    const repriced = run([
      [change(1, appt())],
      [change(5, appt({ status: 'completed' }))],
      [change(6, appt({ status: 'completed', price_cents: 12500 }))],
    ]);
    expect(repriced.totals['2031-03-09'].service_cents).toBe(12500);
    const moved = run([[change(1, appt())], [change(2, appt({ date: '2031-03-31' }))]]);
    expect(moved.totals['2031-03-09']).toBeUndefined();
    expect(moved.totals['2031-03-31']).toEqual({ booked: 1, [serviceCounter('s1', 'booked')]: 1 });
  });

  it('a replay, a duplicate or an older version changes nothing; order within a unit is kept', () => {
    const once = run([
      [change(1, appt())],
      [change(2, appt({ status: 'confirmed' }))],
      [change(3, appt({ status: 'cancelled' }))],
    ]);
    const replayed = run([
      [change(1, appt())],
      [change(2, appt({ status: 'confirmed' }))],
      [change(3, appt({ status: 'cancelled' }))],
      [change(1, appt())],
      [change(3, appt({ status: 'cancelled' })), change(2, appt({ status: 'confirmed' }))],
    ]);
    expect(replayed.totals).toEqual(once.totals);
    const oneUnit = run([
      [
        change(1, appt()),
        change(2, appt({ status: 'confirmed' })),
        change(3, appt({ status: 'cancelled' })),
        change(2, appt()),
      ],
    ]);
    expect(oneUnit.totals).toEqual(once.totals);
    expect(once.totals['2031-03-09']).toMatchObject({
      booked: 1,
      cancelled: 1,
      [providerCounter('p1', 'cancelled')]: 1,
      [serviceCounter('s1', 'cancelled')]: 1,
    });
  });

  it('a deletion subtracts what was counted (tombstone), and a late stale copy does not bring it back', () => {
    const { totals, clientDays, state } = run([
      [change(5, appt({ status: 'completed' }))],
      [change(6, null)],
      [change(5, appt({ status: 'completed' }))],
    ]);
    expect(totals).toEqual({});
    expect(clientDays).toEqual({});
    expect(state.ledger.get('APPOINTMENT#a1')).toEqual({ version: 6, facts: null });
  });

  it('first visits follow the earliest completed visit, also when it is deleted or another comes earlier', () => {
    const a = (id: string, date: string) => change(5, appt({ status: 'completed', date }), `APPOINTMENT#${id}`);
    const { clientDays } = run([
      [a('x', '2031-03-20')],
      [a('y', '2031-03-10')],
      [change(6, null, 'APPOINTMENT#y')],
      [a('z', '2031-03-25')],
    ]);
    expect(clientDays['2031-03-20']).toEqual({ [clientSeenCounter('c1')]: 1, [FIRST_VISITS]: 1 });
    expect(clientDays['2031-03-10']).toBeUndefined();
    expect(clientDays['2031-03-25']).toEqual({ [clientSeenCounter('c1')]: 1 });
  });

  it('payments count as collected and sales as retail, each once', () => {
    const pay = { kind: 'payment', date: '2031-03-01', amount_cents: 4200 } as const;
    const sale = { kind: 'sale', date: '2031-02-28', amount_cents: 9600 } as const;
    const { totals } = run([[change(1, pay, 'PAYMENT#1'), change(1, sale, 'SALE#1')], [change(1, pay, 'PAYMENT#1')]]);
    expect(totals).toEqual({ '2031-03-01': { collected_cents: 4200 }, '2031-02-28': { retail_cents: 9600 } });
  });

  it('a plan sold counts its price at sale on its sale day, once; its later versions (pause, cancel) move nothing', () => {
    const sold = { kind: 'plan', date: '2031-03-01', amount_cents: 60000 } as const;
    const { totals } = run([
      [change(1, sold, 'PLAN_SALE#1')],
      [change(2, sold, 'PLAN_SALE#1')],
      [change(3, sold, 'PLAN_SALE#1'), change(1, sold, 'PLAN_SALE#1')],
    ]);
    expect(totals).toEqual({ '2031-03-01': { plans_cents: 60000 } });
    // A record gone (never in practice; a rebuild or a replay of a removal) takes its sale back.
    expect(run([[change(1, sold, 'PLAN_SALE#1')], [change(2, null, 'PLAN_SALE#1')]]).totals).toEqual({});
  });

  it('planSaleFacts: the sale at its price, on the practice-local date it was sold', () => {
    const sale = {
      medspa_id: 'm1',
      client_plan_id: 'cp1',
      client_id: 'c1',
      plan_id: 'p1',
      price_cents: 9900,
      // 02:30 UTC is still the evening before in New York.
      created_at: '2031-03-01T02:30:00.000Z',
    };
    expect(planSaleFacts(sale, 'America/New_York')).toEqual({ kind: 'plan', date: '2031-02-28', amount_cents: 9900 });
  });

  it('writes are conditioned on the state read: absent ledger and client items, or their version and revision', () => {
    const state = empty();
    state.ledger.set('APPOINTMENT#a1', { version: 4, facts: appt({ status: 'in_progress' }) });
    state.clients.set('c1', { dates: { '2031-01-01': 1 }, rev: 7 });
    const plan = planGeneration(state, [change(5, appt({ status: 'completed' }))]);
    expect(plan.ledger.get('APPOINTMENT#a1')).toEqual({
      expectedVersion: 4,
      entry: { version: 5, facts: appt({ status: 'completed' }) },
    });
    expect(plan.clients.get('c1')).toEqual({ expectedRev: 7, dates: { '2031-01-01': 1, '2031-03-09': 1 }, rev: 8 });
    // Not a first visit: one before.
    expect(plan.clientDays.get('2031-03-09')).toEqual({ [clientSeenCounter('c1')]: 1 });
  });
});

describe('report maths', () => {
  it('periods: local dates, ISO weeks (week-numbering year) and months', () => {
    expect(periodOf('2031-03-09', 'day')).toBe('2031-03-09');
    expect(periodOf('2031-03-09', 'month')).toBe('2031-03');
    expect(periodOf('2031-03-09', 'week')).toBe('2031-W10');
    expect(periodOf('2030-12-30', 'week')).toBe('2031-W01');
    expect(periodOf('2027-01-01', 'week')).toBe('2026-W53');
  });

  it('ranges: the last 30 days by default, 30 days from one end, at most 731 days, `to` not before `from`', () => {
    expect(reportRange({}, '2031-03-31')).toEqual({ from: '2031-03-02', to: '2031-03-31' });
    expect(reportRange({ from: '2031-01-01' }, '2031-03-31')).toEqual({ from: '2031-01-01', to: '2031-01-30' });
    expect(reportRange({ to: '2031-01-30' }, '2031-03-31')).toEqual({ from: '2031-01-01', to: '2031-01-30' });
    expect(reportRange({ from: '2031-01-01', to: '2032-12-31' }, '2031-03-31')).toEqual({
      from: '2031-01-01',
      to: '2032-12-31',
    });
    expect(reportRange({ from: '2031-01-01', to: '2033-01-01' }, '2031-03-31')).toMatchObject({ path: 'to' });
    expect(reportRange({ from: '2031-01-02', to: '2031-01-01' }, '2031-03-31')).toMatchObject({ path: 'to' });
  });

  it('revenue: every period of the range, edges counting only days inside, totals = service + retail + plans', () => {
    const days: { date: string; counters: Record<string, number> }[] = [
      { date: '2031-02-28', counters: { service_cents: 100, retail_cents: 5, completed: 1 } },
      { date: '2031-03-01', counters: { service_cents: 200, collected_cents: 50, plans_cents: 7000, completed: 2 } },
      { date: '2031-03-05', counters: { service_cents: 1000, plans_cents: 9000, completed: 9 } },
    ];
    const report = revenueReport(days, { from: '2031-02-27', to: '2031-03-02' }, 'month');
    expect(report).toEqual({
      total_cents: 7305,
      service_cents: 300,
      retail_cents: 5,
      plans_cents: 7000,
      collected_cents: 50,
      series: [
        {
          period: '2031-02',
          service_cents: 100,
          retail_cents: 5,
          plans_cents: 0,
          collected_cents: 0,
          appointments_completed: 1,
        },
        {
          period: '2031-03',
          service_cents: 200,
          retail_cents: 0,
          plans_cents: 7000,
          collected_cents: 50,
          appointments_completed: 2,
        },
      ],
    });
    expect(revenueReport([], { from: '2031-02-27', to: '2031-03-02' }, 'day').series.map((s) => s.period)).toEqual([
      '2031-02-27',
      '2031-02-28',
      '2031-03-01',
      '2031-03-02',
    ]);
  });

  it('retention: distinct clients over days; returning = seen - new', () => {
    const days: { date: string; counters: Record<string, number> }[] = [
      { date: '2031-03-01', counters: { 'c#a': 1, 'c#b': 2, first_visits: 1 } },
      { date: '2031-03-02', counters: { 'c#a': 1, 'c#c': 0, first_visits: 0 } },
    ];
    expect(clientRetention(days)).toEqual({
      clients_seen: 2,
      new_clients: 1,
      returning_clients: 1,
      retention_rate: 0.5,
    });
    expect(clientRetention([])).toEqual({ clients_seen: 0, new_clients: 0, returning_clients: 0, retention_rate: 0 });
  });

  it('service popularity: the catalog plus services with counters, most booked first', () => {
    const days = [
      {
        date: '2031-03-01',
        counters: {
          [serviceCounter('s2', 'booked')]: 3,
          [serviceCounter('s1', 'booked')]: 1,
          [serviceCounter('s1', 'completed')]: 1,
        },
      },
    ];
    expect(
      servicePopularity(days, [
        { id: 's1', name: 'A' },
        { id: 's3', name: 'C' },
      ]).map((row) => [row.service.id, row.bookings]),
    ).toEqual([
      ['s2', 3],
      ['s1', 1],
      ['s3', 0],
    ]);
  });
});
