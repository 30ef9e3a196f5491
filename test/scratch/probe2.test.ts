import { test } from 'vitest';
import { call, makePractice } from '../fixtures/api';
import { makeClient, makeEquipment, makeProduct, makeProvider, makeRoom, makeService } from '../fixtures/builders';

const out: string[] = [];
const log = (label: string, r: any) => {
  const b = r.body;
  const s = b?.error ? `${b.error.code} ${b.error.message?.slice(0, 100)}` : JSON.stringify(b)?.slice(0, 250);
  out.push(`${label} -> ${r.status} rid=${r.headers['x-request-id'] ? 'y' : 'N'} etag=${r.headers.etag ?? '-'} ${s}`);
};
const ALL = (s = '00:00', e = '24:00') => Object.fromEntries(['mon','tue','wed','thu','fri','sat','sun'].map(d => [d, [{ start: s, end: e }]]));

test('probe2', async () => {
  const A = await makePractice();
  const t = A.adminToken;
  const prov = await makeProvider(A, { working_hours: ALL('09:00', '17:00') });
  const prov2 = await makeProvider(A, { working_hours: ALL('09:00', '17:00') });
  const svc = await makeService(A, { provider_ids: [prov.id] });
  const cl = await makeClient(A);
  const room = await makeRoom(A);
  const eq = await makeEquipment(A);
  const NIL = '11111111-1111-4111-8111-111111111111';
  const base = { client_id: cl.id, service_id: svc.id, provider_id: prov.id };
  const at = '2031-01-06T10:00:00-05:00';
  // validation order
  log('ord client+service missing', await call('POST', '/v1/appointments', { token: t, body: { ...base, client_id: NIL, service_id: NIL, scheduled_at: at } }));
  log('ord service+provider missing', await call('POST', '/v1/appointments', { token: t, body: { ...base, service_id: NIL, provider_id: NIL, scheduled_at: at } }));
  log('ord notcert+room missing', await call('POST', '/v1/appointments', { token: t, body: { ...base, provider_id: prov2.id, room_id: NIL, scheduled_at: at } }));
  log('ord unavailable+room missing', await call('POST', '/v1/appointments', { token: t, body: { ...base, room_id: NIL, scheduled_at: '2031-01-06T03:00:00-05:00' } }));
  log('ord room missing + equip missing', await call('POST', '/v1/appointments', { token: t, body: { ...base, room_id: NIL, equipment_id: NIL, scheduled_at: at } }));
  log('malformed ids', await call('POST', '/v1/appointments', { token: t, body: { ...base, client_id: 'nope', scheduled_at: at } }));
  log('ids number', await call('POST', '/v1/appointments', { token: t, body: { ...base, client_id: 123, scheduled_at: at } }));
  const a1 = (await call('POST', '/v1/appointments', { token: t, body: { ...base, room_id: room.id, equipment_id: eq.id, scheduled_at: at } })).body.data;
  const svc2 = await makeService(A, { provider_ids: [prov.id, prov2.id] });
  log('room busy (other provider)', await call('POST', '/v1/appointments', { token: t, body: { ...base, service_id: svc2.id, provider_id: prov2.id, room_id: room.id, equipment_id: NIL, scheduled_at: '2031-01-06T10:30:00-05:00' } }));
  log('equip busy', await call('POST', '/v1/appointments', { token: t, body: { ...base, service_id: svc2.id, provider_id: prov2.id, equipment_id: eq.id, scheduled_at: '2031-01-06T10:30:00-05:00' } }));
  log('back-to-back', await call('POST', '/v1/appointments', { token: t, body: { ...base, room_id: room.id, equipment_id: eq.id, scheduled_at: '2031-01-06T11:00:00-05:00' } }));
  log('provider overlap', await call('POST', '/v1/appointments', { token: t, body: { ...base, scheduled_at: '2031-01-06T10:59:00-05:00' } }));
  log('ends after hours', await call('POST', '/v1/appointments', { token: t, body: { ...base, scheduled_at: '2031-01-06T16:30:00-05:00' } }));

  // If-Match on appointment PATCH
  for (const h of ['"1"', 'W/"1"', '1', '"9"', 'abc', '*', '"1", "2"']) {
    log(`PATCH appt If-Match ${h}`, await call('PATCH', `/v1/appointments/${a1.id}`, { token: t, body: { notes: 'n' + h }, headers: { 'if-match': h } }));
  }
  log('DELETE appt stale', await call('DELETE', `/v1/appointments/${a1.id}`, { token: t, headers: { 'if-match': '"1"' } }));
  const g = await call('GET', `/v1/appointments/${a1.id}`, { token: t });
  log('GET appt', g);
  log('DELETE appt W/', await call('DELETE', `/v1/appointments/${a1.id}`, { token: t, headers: { 'if-match': `W/"${g.body.data.version}"` } }));
  log('GET deleted appt', await call('GET', `/v1/appointments/${a1.id}`, { token: t }));
  log('rebook freed', await call('POST', '/v1/appointments', { token: t, body: { ...base, room_id: room.id, scheduled_at: at } }));

  // per resource ETag flows
  const res: [string, any, any][] = [
    ['clients', await makeClient(A), { notes: 'x' }],
    ['providers', await makeProvider(A), { title: 'x' }],
    ['rooms', await makeRoom(A), { description: 'x' }],
    ['equipment', await makeEquipment(A), { description: 'x' }],
    ['services', await makeService(A), { description: 'x' }],
    ['products', await makeProduct(A), { brand: 'x' }],
  ];
  for (const [path, r, patch] of res) {
    log(`GET ${path}`, await call('GET', `/v1/${path}/${r.id}`, { token: t }));
    log(`PATCH ${path} "1"`, await call('PATCH', `/v1/${path}/${r.id}`, { token: t, body: patch, headers: { 'if-match': '"1"' } }));
    log(`PATCH ${path} 1 stale`, await call('PATCH', `/v1/${path}/${r.id}`, { token: t, body: patch, headers: { 'if-match': '1' } }));
    log(`PATCH ${path} W/"2"`, await call('PATCH', `/v1/${path}/${r.id}`, { token: t, body: patch, headers: { 'if-match': 'W/"2"' } }));
    log(`PATCH ${path} empty`, await call('PATCH', `/v1/${path}/${r.id}`, { token: t, body: {} }));
    log(`PATCH ${path} unknown field`, await call('PATCH', `/v1/${path}/${r.id}`, { token: t, body: { zzz: 1 } }));
    log(`PATCH ${path} null body`, await call('PATCH', `/v1/${path}/${r.id}`, { token: t, rawBody: 'null' }));
    log(`PATCH ${path} unknown id`, await call('PATCH', `/v1/${path}/${NIL}`, { token: t, body: patch, headers: { 'if-match': '"1"' } }));
    log(`PATCH ${path} malformed id`, await call('PATCH', `/v1/${path}/%ZZ`, { token: t, body: patch }));
    log(`DELETE ${path} stale`, await call('DELETE', `/v1/${path}/${r.id}`, { token: t, headers: { 'if-match': '"1"' } }));
    log(`DELETE ${path} "4"`, await call('DELETE', `/v1/${path}/${r.id}`, { token: t, headers: { 'if-match': '"4"' } }));
    log(`GET ${path} after`, await call('GET', `/v1/${path}/${r.id}`, { token: t }));
    log(`DELETE ${path} again`, await call('DELETE', `/v1/${path}/${r.id}`, { token: t }));
  }
  log('unassign', await call('DELETE', `/v1/services/${svc2.id}/providers/${prov2.id}`, { token: t, headers: { 'if-match': '"99"' } }));
  log('assign', await call('POST', `/v1/services/${svc2.id}/providers`, { token: t, body: { provider_id: prov2.id } }));
  log('practice PATCH stale', await call('PATCH', '/v1/practice', { token: t, body: { name: 'x' }, headers: { 'if-match': '"99"' } }));
  log('practice PATCH', await call('PATCH', '/v1/practice', { token: t, body: { name: 'x' }, headers: { 'if-match': '"1"' } }));
  log('practice PATCH tz bad', await call('PATCH', '/v1/practice', { token: t, body: { time_zone: 'Mars/Base' } }));
  log('practice PATCH rlm neg', await call('PATCH', '/v1/practice', { token: t, body: { reminder_lead_minutes: -1 } }));
  const cr = await call('POST', '/v1/credentials', { token: t, body: { name: 'fd', role: 'front_desk' } });
  log('cred create', cr);
  log('cred list', await call('GET', '/v1/credentials', { token: t }));
  log('cred delete', await call('DELETE', `/v1/credentials/${cr.body.data.client_id}`, { token: t }));
  log('cred delete unknown', await call('DELETE', `/v1/credentials/nope`, { token: t }));
  log('token revoked', await call('POST', '/v1/auth/token', { body: { client_id: cr.body.data.client_id, client_secret: cr.body.data.client_secret } }));

  // time off / consents UTC
  const p3 = await call('POST', '/v1/providers', { token: t, body: { first_name: 'a', last_name: 'b', time_off: [{ start: '2031-01-01T09:00:00+02:00', end: '2031-01-01T10:00:00.5+02:00' }] } });
  log('provider time_off', p3);
  log('consent offset', await call('POST', `/v1/clients/${cl.id}/consents`, { token: t, body: { form_name: 'Botox', signed_at: '2024-01-01T09:00:00+02:00' } }));
  log('consent noOffset', await call('POST', `/v1/clients/${cl.id}/consents`, { token: t, body: { form_name: 'Botox', signed_at: '2024-01-01T09:00:00' } }));
  log('consent future', await call('POST', `/v1/clients/${cl.id}/consents`, { token: t, body: { form_name: 'Botox', signed_at: '2099-01-01T09:00:00Z' } }));
  log('consent future unknown client', await call('POST', `/v1/clients/${NIL}/consents`, { token: t, body: { form_name: 'Botox', signed_at: '2099-01-01T09:00:00Z' } }));
  log('consents list', await call('GET', `/v1/clients/${cl.id}/consents`, { token: t }));

  // 413
  log('413', await call('POST', '/v1/clients', { token: t, rawBody: JSON.stringify({ first_name: 'a', last_name: 'b', notes: 'x'.repeat(300000) }) }));
  log('413 no auth', await call('POST', '/v1/clients', { rawBody: 'x'.repeat(300000) }));
  log('long notes', await call('POST', '/v1/clients', { token: t, body: { first_name: 'a'.repeat(201), last_name: 'b' } }));
  log('unicode name', await call('POST', '/v1/clients', { token: t, body: { first_name: '\ud800', last_name: '😀' } }));
  log('unknown route', await call('GET', '/v1/nope', { token: t }));
  log('wrong method', await call('PUT', '/v1/clients', { token: t }));
  log('no auth', await call('GET', '/v1/clients'));
  log('bad auth', await call('GET', '/v1/clients', { headers: { authorization: 'Bearer abc.def.ghi' } }));
  log('basic auth on api', await call('GET', '/v1/clients', { headers: { authorization: 'Basic abc' } }));
  log('health', await call('GET', '/health'));
  log('jwks', await call('GET', '/.well-known/jwks.json'));
  log('form token', await call('POST', '/v1/auth/token', { rawBody: `grant_type=client_credentials&client_id=${A.clientId}&client_secret=${A.clientSecret}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } }));
  log('basic token', await call('POST', '/v1/auth/token', { rawBody: 'grant_type=client_credentials', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: 'Basic ' + Buffer.from(`${A.clientId}:${A.clientSecret}`).toString('base64') } }));
  log('basic token no body', await call('POST', '/v1/auth/token', { headers: { authorization: 'Basic ' + Buffer.from(`${A.clientId}:${A.clientSecret}`).toString('base64') } }));
  log('token wrong secret', await call('POST', '/v1/auth/token', { body: { client_id: A.clientId, client_secret: 'x' } }));
  log('token grant wrong', await call('POST', '/v1/auth/token', { body: { grant_type: 'password', client_id: A.clientId, client_secret: A.clientSecret } }));
  log('form elsewhere', await call('POST', '/v1/clients', { token: t, rawBody: 'a=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } }));
  console.log(out.join('\n'));
}, 120_000);
