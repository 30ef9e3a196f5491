import { test } from 'vitest';
import { call, makePractice } from '../fixtures/api';
import { makeClient, makeEquipment, makeProduct, makeProvider, makeRoom, makeService, EVERY_DAY_9_TO_5 } from '../fixtures/builders';

const out: string[] = [];
const log = (label: string, r: any) => {
  const b = r.body;
  const s = b?.error ? `${b.error.code} ${b.error.message?.slice(0, 120)}` : JSON.stringify(b)?.slice(0, 300);
  out.push(`${label} -> ${r.status} rid=${r.headers['x-request-id'] ? 'y' : 'N'} etag=${r.headers.etag ?? '-'} ${s}`);
};

test('probe', async () => {
  const A = await makePractice();
  const B = await makePractice();
  const t = A.adminToken;
  const prov = await makeProvider(A, { working_hours: Object.fromEntries(['mon','tue','wed','thu','fri','sat','sun'].map(d => [d, [{ start: '00:00', end: '24:00' }]])) });
  const svc = await makeService(A, { provider_ids: [prov.id] });
  const cl = await makeClient(A);
  const room = await makeRoom(A);
  const eq = await makeEquipment(A);
  const provB = await makeProvider(B);
  const clB = await makeClient(B);

  // JSON body oddities
  for (const raw of ['null', '[]', '"x"', '1', 'true', '{', '  ', '{"a":1}']) {
    log(`POST clients raw ${raw}`, await call('POST', '/v1/clients', { token: t, rawBody: raw, headers: { 'content-type': 'application/json' } }));
  }
  log('POST cancel raw null', await call('POST', '/v1/appointments/' + prov.id + '/cancel', { token: t, rawBody: 'null', headers: { 'content-type': 'application/json' } }));
  log('POST token raw null', await call('POST', '/v1/auth/token', { rawBody: 'null', headers: { 'content-type': 'application/json' } }));
  log('POST token raw []', await call('POST', '/v1/auth/token', { rawBody: '[]', headers: { 'content-type': 'application/json' } }));
  log('GET appts body []', await call('GET', '/v1/appointments', { token: t, rawBody: '[1]' }));
  log('GET appts body null', await call('GET', '/v1/appointments', { token: t, rawBody: 'null' }));

  // big numbers
  const base = { client_id: cl.id, service_id: svc.id, provider_id: prov.id };
  log('appt price 1e200', await call('POST', '/v1/appointments', { token: t, body: { ...base, scheduled_at: '2031-01-06T10:00:00Z', price_cents: 1e200 } }));
  log('appt price 2^60', await call('POST', '/v1/appointments', { token: t, body: { ...base, scheduled_at: '2031-01-06T11:00:00Z', price_cents: 2 ** 60 } }));
  log('appt dur float', await call('POST', '/v1/appointments', { token: t, body: { ...base, scheduled_at: '2031-01-06T12:00:00Z', duration_minutes: 30.5 } }));
  log('appt no offset', await call('POST', '/v1/appointments', { token: t, body: { ...base, scheduled_at: '2031-01-06T12:00:00' } }));
  log('appt date only', await call('POST', '/v1/appointments', { token: t, body: { ...base, scheduled_at: '2031-01-06' } }));
  log('appt feb30', await call('POST', '/v1/appointments', { token: t, body: { ...base, scheduled_at: '2031-02-30T12:00:00Z' } }));
  log('appt no seconds', await call('POST', '/v1/appointments', { token: t, body: { ...base, scheduled_at: '2031-01-07T12:00Z' } }));
  log('appt +0500 compact', await call('POST', '/v1/appointments', { token: t, body: { ...base, scheduled_at: '2031-01-08T12:00:00+0500' } }));
  log('appt year 9999', await call('POST', '/v1/appointments', { token: t, body: { ...base, scheduled_at: '9999-12-31T23:00:00Z', duration_minutes: 120 } }));
  log('appt year 0000', await call('POST', '/v1/appointments', { token: t, body: { ...base, scheduled_at: '0000-01-01T10:00:00Z' } }));
  const ok = await call('POST', '/v1/appointments', { token: t, body: { ...base, scheduled_at: '2031-01-09T10:00:00-05:00', room_id: room.id, equipment_id: eq.id } });
  log('appt ok', ok);
  const appt = ok.body.data;
  log('GET appt', await call('GET', `/v1/appointments/${appt.id}`, { token: t }));

  // treatment record numbers
  await call('PATCH', `/v1/appointments/${appt.id}/status`, { token: t, body: { status: 'confirmed' } });
  await call('PATCH', `/v1/appointments/${appt.id}/status`, { token: t, body: { status: 'checked_in' } });
  log('TR qty 1e300', await call('PUT', `/v1/appointments/${appt.id}/treatment-record`, { token: t, body: { products_used: [{ name: 'x', quantity: 1e300 }] } }));
  log('TR qty 1e-300', await call('PUT', `/v1/appointments/${appt.id}/treatment-record`, { token: t, body: { products_used: [{ name: 'x', quantity: 1e-300 }] } }));
  log('TR qty 0.123456789012345678', await call('PUT', `/v1/appointments/${appt.id}/treatment-record`, { token: t, body: { products_used: [{ name: 'x', quantity: 0.1 + 0.2 }] } }));
  log('TR empty', await call('PUT', `/v1/appointments/${appt.id}/treatment-record`, { token: t, body: {} }));
  log('TR noBody', await call('PUT', `/v1/appointments/${appt.id}/treatment-record`, { token: t }));

  // availability
  log('avail 72h off-hour', await call('GET', `/v1/providers/${prov.id}/availability?start=2031-02-01T00:30:00Z&end=2031-02-04T00:30:00Z`, { token: t }));
  log('avail 72h on-hour', await call('GET', `/v1/providers/${prov.id}/availability?start=2031-02-01T00:00:00Z&end=2031-02-04T00:00:00Z`, { token: t }));
  log('avail end<start', await call('GET', `/v1/providers/${prov.id}/availability?start=2031-02-02T00:00:00Z&end=2031-02-01T00:00:00Z`, { token: t }));
  log('avail noOffset', await call('GET', `/v1/providers/${prov.id}/availability?start=2031-02-01T00:00:00&end=2031-02-01T01:00:00Z`, { token: t }));
  log('avail other practice prov', await call('GET', `/v1/providers/${provB.id}/availability?start=2031-02-01T00:00:00Z&end=2031-02-01T01:00:00Z`, { token: t }));
  // slots
  for (const d of ['9999-12-31', '0000-01-01', '0001-01-01', '2031-02-30', '2031-01-06']) {
    log(`slots ${d}`, await call('GET', `/v1/providers/${prov.id}/slots?date=${d}&duration_minutes=60&interval_minutes=240`, { token: t }));
  }
  log('slots no duration', await call('GET', `/v1/providers/${prov.id}/slots?date=2031-01-06`, { token: t }));
  log('slots interval 0', await call('GET', `/v1/providers/${prov.id}/slots?date=2031-01-06&duration_minutes=60&interval_minutes=0`, { token: t }));
  log('slots service other practice', await call('GET', `/v1/providers/${prov.id}/slots?date=2031-01-06&service_id=${provB.id}`, { token: t }));
  // appointments list
  for (const q of ['from=9999-12-31&to=9999-12-31', 'from=0000-01-01&to=0000-01-02', 'from=2031-01-09&to=2031-01-09', 'startDate=2031-01-09&endDate=2031-01-09', 'from=2031-01-10&to=2031-01-09', 'from=2030-01-01&to=2031-01-09', 'limit=0', 'limit=101', 'limit=1.5', 'limit=abc', 'limit=', 'limit=5&limit=6', 'status=scheduled,confirmed&from=2031-01-09&to=2031-01-09', 'status=checked_in&status=confirmed&from=2031-01-09&to=2031-01-09', 'status=bogus', 'status=', 'cursor=abc', 'from=2031-1-9']) {
    log(`list ${q}`, await call('GET', `/v1/appointments?${q}`, { token: t }));
  }
  // forged cursors
  const enc = (o: any) => Buffer.from(JSON.stringify(o)).toString('base64url');
  log('list forged month cursor', await call('GET', `/v1/appointments?from=2031-01-01&to=2031-01-31&cursor=${enc({ month: '2031-01', key: { gsi1pk: `P#${A.medspaId}#APPTS#2031-01` } })}`, { token: t }));
  log('clients forged cursor no sk', await call('GET', `/v1/clients?cursor=${enc({ pk: `P#${A.medspaId}#CLIENT` })}`, { token: t }));
  log('clients forged cursor extra', await call('GET', `/v1/clients?cursor=${enc({ pk: `P#${A.medspaId}#CLIENT`, sk: 'a', gsi1pk: 'x' })}`, { token: t }));
  log('clients forged cursor B', await call('GET', `/v1/clients?cursor=${enc({ pk: `P#${B.medspaId}#CLIENT`, sk: 'a' })}`, { token: t }));
  log('payments forged cursor', await call('GET', `/v1/payments?cursor=${enc({ month: new Date().toISOString().slice(0,7), key: { gsi1pk: `P#${A.medspaId}#PAYMENTS#${new Date().toISOString().slice(0,7)}` } })}`, { token: t }));
  // audit log
  log('audit from>to', await call('GET', '/v1/audit-log?from=2031-02-01T00:00:00Z&to=2031-01-01T00:00:00Z', { token: t }));
  log('audit noOffset', await call('GET', '/v1/audit-log?from=2031-02-01T00:00:00', { token: t }));
  log('audit', await call('GET', '/v1/audit-log?limit=2', { token: t }));

  // isolation
  log('appt with B client', await call('POST', '/v1/appointments', { token: t, body: { ...base, client_id: clB.id, scheduled_at: '2031-01-06T15:00:00Z' } }));
  log('appt with B provider', await call('POST', '/v1/appointments', { token: t, body: { ...base, provider_id: provB.id, scheduled_at: '2031-01-06T15:00:00Z' } }));
  log('service with B provider', await call('POST', '/v1/services', { token: t, body: { name: 'x', price_cents: 1, duration_minutes: 30, provider_ids: [provB.id] } }));
  log('GET B client', await call('GET', `/v1/clients/${clB.id}`, { token: t }));
  log('PATCH B client', await call('PATCH', `/v1/clients/${clB.id}`, { token: t, body: { first_name: 'Hacked' } }));
  log('DELETE B client', await call('DELETE', `/v1/clients/${clB.id}`, { token: t }));
  log('DELETE B provider', await call('DELETE', `/v1/providers/${provB.id}`, { token: t }));
  log('payment B client', await call('POST', '/v1/payments', { token: t, body: { client_id: clB.id, amount_cents: 100, method: 'cash' } }));
  log('consent B client', await call('POST', `/v1/clients/${clB.id}/consents`, { token: t, body: { form_name: 'x', signed_at: '2024-01-01T00:00:00Z' } }));
  log('B sees client', await call('GET', `/v1/clients/${clB.id}`, { token: B.adminToken }));

  console.log(out.join('\n'));
}, 120_000);
