import { test } from 'vitest';
import { call, makePractice } from '../fixtures/api';
import { makeClient, makeEquipment, makeProduct, makeProvider, makeRoom, makeService } from '../fixtures/builders';

const out: string[] = [];
const log = (label: string, r: any) => {
  const b = r.body;
  const s = b?.error ? `${b.error.code} ${b.error.message?.slice(0, 100)}` : JSON.stringify(b)?.slice(0, 250);
  out.push(`${label} -> ${r.status} ${s}`);
};
const ALL = (s = '00:00', e = '24:00') => Object.fromEntries(['mon','tue','wed','thu','fri','sat','sun'].map(d => [d, [{ start: s, end: e }]]));

test('roles', async () => {
  const A = await makePractice();
  const t = A.adminToken;
  const prov = await makeProvider(A, { working_hours: ALL() });
  const svc = await makeService(A, { provider_ids: [prov.id] });
  const cl = await makeClient(A);
  const room = await makeRoom(A);
  const eq = await makeEquipment(A);
  const prod = await makeProduct(A, { quantity_on_hand: 100 });
  const roles = ['admin', 'manager', 'front_desk', 'provider', 'analyst'] as const;
  const tok: Record<string, string> = { admin: t };
  for (const r of roles.slice(1)) tok[r] = await A.tokenForRole(r);
  let n = 0;
  const mkAppt = async () => (await call('POST', '/v1/appointments', { token: t, body: { client_id: cl.id, service_id: svc.id, provider_id: prov.id, scheduled_at: new Date(Date.UTC(2031, 0, 1) + (n++) * 3600_000).toISOString() } })).body.data;
  const rows: string[] = [];
  const cases: [string, (tk: string) => Promise<any>][] = [
    ['GET practice', (k) => call('GET', '/v1/practice', { token: k })],
    ['PATCH practice', (k) => call('PATCH', '/v1/practice', { token: k, body: {} })],
    ['GET credentials', (k) => call('GET', '/v1/credentials', { token: k })],
    ['POST credentials', (k) => call('POST', '/v1/credentials', { token: k, body: { name: 'x', role: 'analyst' } })],
    ['GET audit', (k) => call('GET', '/v1/audit-log', { token: k })],
    ['GET clients', (k) => call('GET', '/v1/clients', { token: k })],
    ['POST clients', (k) => call('POST', '/v1/clients', { token: k, body: { first_name: 'a', last_name: 'b' } })],
    ['PATCH client', (k) => call('PATCH', `/v1/clients/${cl.id}`, { token: k, body: {} })],
    ['GET history', (k) => call('GET', `/v1/clients/${cl.id}/history`, { token: k })],
    ['POST consent', (k) => call('POST', `/v1/clients/${cl.id}/consents`, { token: k, body: { form_name: 'f', signed_at: '2024-01-01T00:00:00Z' } })],
    ['GET consents', (k) => call('GET', `/v1/clients/${cl.id}/consents`, { token: k })],
    ['GET providers', (k) => call('GET', '/v1/providers', { token: k })],
    ['POST providers', (k) => call('POST', '/v1/providers', { token: k, body: { first_name: 'a', last_name: 'b' } })],
    ['PATCH provider', (k) => call('PATCH', `/v1/providers/${prov.id}`, { token: k, body: {} })],
    ['POST rooms', (k) => call('POST', '/v1/rooms', { token: k, body: { name: 'r' } })],
    ['GET rooms', (k) => call('GET', '/v1/rooms', { token: k })],
    ['POST services', (k) => call('POST', '/v1/services', { token: k, body: { name: 's', price_cents: 1, duration_minutes: 30 } })],
    ['assign', (k) => call('POST', `/v1/services/${svc.id}/providers`, { token: k, body: { provider_id: prov.id } })],
    ['GET products', (k) => call('GET', '/v1/products', { token: k })],
    ['GET product', (k) => call('GET', `/v1/products/${prod.id}`, { token: k })],
    ['POST products', (k) => call('POST', '/v1/products', { token: k, body: { name: 'p', sku: 'S' + Math.random(), price_cents: 1 } })],
    ['stock sale', (k) => call('POST', `/v1/products/${prod.id}/stock-adjustments`, { token: k, body: { delta: -1, reason: 'sale' } })],
    ['stock received', (k) => call('POST', `/v1/products/${prod.id}/stock-adjustments`, { token: k, body: { delta: 1, reason: 'received' } })],
    ['GET ledger', (k) => call('GET', `/v1/products/${prod.id}/stock-adjustments`, { token: k })],
    ['GET payments', (k) => call('GET', '/v1/payments', { token: k })],
    ['POST payments', (k) => call('POST', '/v1/payments', { token: k, body: { client_id: cl.id, amount_cents: 1, method: 'cash' } })],
    ['GET appts', (k) => call('GET', '/v1/appointments', { token: k })],
    ['POST appt', async (k) => call('POST', '/v1/appointments', { token: k, body: { client_id: cl.id, service_id: svc.id, provider_id: prov.id, scheduled_at: new Date(Date.UTC(2032, 0, 1) + (n++) * 3600_000).toISOString() } })],
    ['PATCH appt', async (k) => call('PATCH', `/v1/appointments/${(await mkAppt()).id}`, { token: k, body: { notes: 'x' } })],
    ['status confirm', async (k) => call('PATCH', `/v1/appointments/${(await mkAppt()).id}/status`, { token: k, body: { status: 'confirmed' } })],
    ['status cancelled', async (k) => call('PATCH', `/v1/appointments/${(await mkAppt()).id}/status`, { token: k, body: { status: 'cancelled' } })],
    ['POST cancel', async (k) => call('POST', `/v1/appointments/${(await mkAppt()).id}/cancel`, { token: k })],
    ['DELETE appt', async (k) => call('DELETE', `/v1/appointments/${(await mkAppt()).id}`, { token: k })],
    ['reminder', async (k) => call('POST', `/v1/appointments/${(await mkAppt()).id}/reminders`, { token: k })],
    ['treatment', async (k) => { const a = await mkAppt(); await call('PATCH', `/v1/appointments/${a.id}/status`, { token: t, body: { status: 'confirmed' } }); await call('PATCH', `/v1/appointments/${a.id}/status`, { token: t, body: { status: 'checked_in' } }); return call('PUT', `/v1/appointments/${a.id}/treatment-record`, { token: k, body: { summary: 's' } }); }],
    ['no-show', async (k) => { const a = await mkAppt(); await call('PATCH', `/v1/appointments/${a.id}/status`, { token: t, body: { status: 'confirmed' } }); await call('PATCH', `/v1/appointments/${a.id}/status`, { token: t, body: { status: 'checked_in' } }); return call('POST', `/v1/appointments/${a.id}/no-show`, { token: k }); }],
    ['slots', (k) => call('GET', `/v1/providers/${prov.id}/slots?date=2031-05-01&duration_minutes=60`, { token: k })],
  ];
  for (const [name, fn] of cases) {
    const cells: string[] = [];
    for (const r of roles) { const res = await fn(tok[r]); cells.push(`${r}:${res.status}${res.body?.error ? '/' + res.body.error.code : ''}`); }
    rows.push(`${name.padEnd(18)} ${cells.join('  ')}`);
  }
  console.log(rows.join('\n'));
}, 180_000);
