/**
 * `npm run probe:public`: the public surface attacked as a stranger with a practice's booking page
 * would (issue 34), against a running `npm start`: the per-client limit and one client per email
 * under concurrency, replays with another booking token or address, eight client addresses
 * (127.0.0.2-9) under their own budgets beside a ninth, and the small findings. BASE, CLIENT_ID and
 * CLIENT_SECRET (the demo credentials `npm start` prints) from the environment; it sets up its own
 * providers, service and key in that practice and changes its online booking settings.
 * Each scenario is also an integration test; this runs them against the product as it starts.
 */
import { request } from 'node:http';

type Answer = { status: number; headers: Record<string, any>; body: any };
const u = new URL(process.env.BASE ?? 'http://127.0.0.1:3000');
let seq = 0;
function http(
  method: string,
  path: string,
  { headers = {}, body, from = '127.0.0.1' }: { headers?: Record<string, string>; body?: unknown; from?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      {
        hostname: u.hostname,
        port: u.port,
        path,
        method,
        localAddress: from,
        headers: {
          ...headers,
          ...(text ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const t = Buffer.concat(chunks).toString();
          let j: any;
          try {
            j = JSON.parse(t);
          } catch {
            j = t;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: j });
        });
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}
const results: [boolean, string][] = [];
const check = (name: string, ok: boolean, detail = '') => {
  results.push([ok, name]);
  console.log(`${ok ? 'PASS' : 'FAIL'} ${name} ${ok ? '' : detail}`);
};
const token = (
  await http('POST', '/v1/auth/token', {
    body: { client_id: process.env.CLIENT_ID, client_secret: process.env.CLIENT_SECRET },
  })
).body.access_token;
const staff = (method: string, path: string, body?: unknown, extra: Record<string, string> = {}) =>
  http(method, path, {
    headers: { authorization: `Bearer ${token}`, 'idempotency-key': `p-${Date.now()}-${++seq}`, ...extra },
    body,
  });
const hours = Object.fromEntries(
  ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [{ start: '08:00', end: '20:00' }]]),
);
const providers: string[] = [];
for (let i = 0; i < 10; i++)
  providers.push(
    (await staff('POST', '/v1/providers', { first_name: 'Probe', last_name: `P${i}`, working_hours: hours })).body.data
      .id,
  );
const service = (
  await staff('POST', '/v1/services', {
    name: `Probe ${Date.now()}`,
    category: 'skin',
    price_cents: 1000,
    duration_minutes: 30,
    provider_ids: providers,
  })
).body.data;
const _practice = (await staff('GET', '/v1/practice')).body.data;
await staff('PATCH', '/v1/practice', {
  online_booking: { enabled: true, max_active_bookings_per_client: 3, horizon_days: 365 },
});
const key = (await staff('POST', '/v1/publishable-keys', { name: 'Probe', allowed_origins: ['https://spa.example'] }))
  .body.data;
const day = new Date(Date.now() + 20 * 86400e3).toISOString().slice(0, 10);
const avail = await http('GET', `/v1/public/availability?service_id=${service.id}&from=${day}&to=${day}`, {
  headers: { 'x-publishable-key': key.key },
});
const starts: string[] = avail.body.data[0].slots.map((slot: { slot_start: string }) => slot.slot_start);
const pub = (
  path: string,
  body: unknown,
  { from, token: bt, idem }: { from?: string; token?: string; idem?: string } = {},
) =>
  http('POST', path, {
    from,
    headers: {
      'x-publishable-key': key.key,
      'idempotency-key': idem ?? `pub-${Date.now()}-${++seq}`,
      ...(bt ? { 'x-booking-token': bt } : {}),
    },
    body,
  });
const booking = (email: string, i: number, at = starts[i * 3]) => ({
  service_id: service.id,
  provider_id: providers[i],
  scheduled_at: at,
  client: { first_name: 'Pro', last_name: 'Be', email },
});

// 1. limit under concurrency: 3 left -> exactly 3; 1 left -> exactly 1
let email = `probe3.${Date.now()}@example.com`;
let answers = await Promise.all(providers.map((_, i) => pub('/v1/public/bookings', booking(email, i))));
check(
  '10 parallel, 3 left -> exactly 3 x 201',
  answers.filter((a) => a.status === 201).length === 3 &&
    answers.filter((a) => a.body?.error?.code === 'BOOKING_LIMIT_REACHED').length === 7,
  JSON.stringify(answers.map((a) => a.status)),
);
// 2. one email, one client
await staff('PATCH', '/v1/practice', { online_booking: { max_active_bookings_per_client: 100 } });
email = `probe1.${Date.now()}@example.com`;
answers = await Promise.all(providers.map((_, i) => pub('/v1/public/bookings', booking(email, i, starts[i * 3 + 2]))));
const owners = new Set(
  await Promise.all(
    answers
      .filter((a) => a.status === 201)
      .map(async (a) => (await staff('GET', `/v1/appointments/${a.body.data.appointment_id}`)).body.data.client_id),
  ),
);
const found = (await staff('GET', `/v1/clients?q=${encodeURIComponent(email)}`)).body.data.filter(
  (c: { email: string }) => c.email === email,
);
check(
  '10 parallel first bookings by a new email -> one client',
  answers.every((a) => a.status === 201) && owners.size === 1 && found.length === 1,
  `${answers.map((a) => a.status)} owners ${owners.size} clients ${found.length} ${answers.map((a) => a.body?.error?.code)}`,
);
// 3. replays leak nothing
const first = answers[0].body.data;
const idem = `cancel-${Date.now()}`;
const cancelled = await pub(
  `/v1/public/bookings/${first.appointment_id}/cancel`,
  {},
  { token: first.manage_token, idem },
);
let leak = false;
for (const bt of ['wrong', undefined]) {
  const r = await pub(`/v1/public/bookings/${first.appointment_id}/cancel`, {}, { token: bt, idem });
  if (r.status !== 404 || JSON.stringify(r.body).includes('manage_token')) leak = true;
}
const other = await pub(
  `/v1/public/bookings/${first.appointment_id}/cancel`,
  {},
  { token: first.manage_token, idem, from: '127.0.0.5' },
);
if (other.headers['idempotent-replayed']) leak = true;
check('replays with wrong/missing token or another IP leak nothing', cancelled.status === 200 && !leak);
// 4. eight IPs under their own limit, a ninth gets 200
const eight: Promise<Answer>[] = [];
for (let ip = 2; ip <= 9; ip++)
  for (let n = 0; n < 15; n++)
    eight.push(
      http('GET', '/v1/public/practice', { from: `127.0.0.${ip}`, headers: { 'x-publishable-key': key.key } }),
    );
const eightAnswers = await Promise.all(eight);
const ninth = await http('GET', '/v1/public/practice', {
  from: '127.0.0.10',
  headers: { 'x-publishable-key': key.key },
});
check(
  'eight IPs x 15 requests (each under burst 20), a ninth IP answers 200',
  eightAnswers.every((a) => a.status === 200) && ninth.status === 200,
  `${eightAnswers.filter((a) => a.status !== 200).length} refused; ninth ${ninth.status}`,
);
// 5. small findings
const odd = await pub(
  '/v1/public/bookings',
  booking(`odd.${Date.now()}@example.com`, 0, new Date(Date.parse(starts[2]) + 7 * 60e3).toISOString()),
);
check(
  'a booking at 12:07-style minute -> 409 SLOT_UNAVAILABLE',
  odd.body?.error?.code === 'SLOT_UNAVAILABLE',
  JSON.stringify(odd.body),
);
const b2 = answers[1].body.data;
const moved = await pub(
  `/v1/public/bookings/${b2.appointment_id}/reschedule`,
  { scheduled_at: starts[40] },
  { token: b2.manage_token },
);
const oldTok = await http('GET', `/v1/public/bookings/${b2.appointment_id}`, {
  headers: { 'x-publishable-key': key.key, 'x-booking-token': b2.manage_token },
});
check(
  'after a reschedule the old token is 404',
  moved.status === 200 && oldTok.status === 404,
  `${moved.status} ${oldTok.status}`,
);
for (const bad of ['https://*.example', 'https://a;b.example', '']) {
  const r = await staff('POST', '/v1/publishable-keys', { name: 'x', allowed_origins: [bad] });
  check(`allowed_origins ${JSON.stringify(bad)} -> 400`, r.status === 400, String(r.status));
}
const js = await http('GET', '/book.js', { headers: { host: 'evil.example' } });
check('/book.js never names the Host header', typeof js.body === 'string' && !js.body.includes('evil.example'));
const tok = await http('POST', '/v1/auth/token', {
  headers: { 'x-publishable-key': key.key },
  body: { client_id: process.env.CLIENT_ID, client_secret: process.env.CLIENT_SECRET },
});
check('X-Publishable-Key on the token exchange -> 401', tok.status === 401, String(tok.status));
const staffIdem = `o-${Date.now()}`;
const c = (await staff('POST', '/v1/clients', { first_name: 'O', last_name: 'R' })).body.data;
const body = { client_id: c.id, service_id: service.id, provider_id: providers[9], scheduled_at: starts[5] };
const ref = await http('POST', '/v1/appointments', {
  headers: { authorization: `Bearer ${token}`, 'idempotency-key': staffIdem, origin: 'https://evil.example' },
  body,
});
const ok = await http('POST', '/v1/appointments', {
  headers: { authorization: `Bearer ${token}`, 'idempotency-key': staffIdem },
  body,
});
check(
  'staff 403 for Origin not stored under its key',
  ref.status === 403 && ok.status === 201 && !ok.headers['idempotent-replayed'],
  `${ref.status} ${ok.status} ${JSON.stringify(ok.body)}`,
);
const refusedPub = await http('GET', '/v1/public/practice', {
  headers: { 'x-publishable-key': key.key, origin: 'https://evil.example' },
});
const log = await staff('GET', '/v1/audit-log?limit=100');
const auditIds = JSON.stringify(log.body);
check(
  'public call refused for Origin is audited; public cancel audited with resource_id',
  refusedPub.status === 403 &&
    auditIds.includes(refusedPub.body.error.request_id) &&
    log.body.data.some(
      (e: { operation: string; resource_id: string }) =>
        e.operation === 'cancelPublicBooking' && e.resource_id === first.appointment_id,
    ),
);
console.log(`${results.filter(([ok]) => ok).length}/${results.length} passed`);
process.exit(results.every(([ok]) => ok) ? 0 : 1);
