/**
 * `npm run bench:cost`: what each operation costs on AWS, measured through the real handlers on
 * DynamoDB Local (./ddb-meter.ts bills every DynamoDB call from the items' sizes), with its stream
 * records run through the real stream workers, its events through fan-out and delivery to a local
 * receiver, its log lines and response bytes captured; priced with ./prices.ts by ./cost-model.ts
 * and printed next to each operation's floor (./cost-floors.ts). Then the monthly bill of the
 * workload (./cost-workload.ts) for 1 and 1,000 practices, with the fixed costs taken from the
 * synthesized production stage (./cost-stack.ts). The model and its assumptions: docs/cost.md.
 */
import { randomUUID } from 'node:crypto';
import { writeSync } from 'node:fs';
import { benchEnvironment, startBenchTable } from './bench-table';
benchEnvironment('bench_cost');
// As deployed (stage settings: INFO), so the log lines are the ones AWS would ingest.
process.env.LOG_LEVEL = 'INFO';
process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
// As Lambda sets it for the synthesized functions' JSON log format (lib/log.ts leaves the timestamp to CloudWatch).
process.env.AWS_LAMBDA_LOG_FORMAT = 'JSON';
// Rate limits stay on (each request still writes its buckets) but never refuse the bench.
process.env.RATE_LIMIT_RPS = '100000';
process.env.RATE_LIMIT_BURST = '100000';
process.env.RATE_LIMIT_IP_RPS = '100000';
process.env.RATE_LIMIT_IP_BURST = '100000';
process.env.ALLOW_LOCAL_WEBHOOKS = 'true';

const { resetConfig } = await import('../../lib/config');
const { resetDdb } = await import('../../lib/db/client');
const { startDdbMeter } = await import('./ddb-meter');
const { dispatch } = await import('../../infra/local/router');
const { call, makePractice } = await import('../fixtures/api');
const { makeClient, makeProvider, makeService } = await import('../fixtures/builders');
const { enableOnlineBooking } = await import('../fixtures/online-booking');
const { at, futureWeekday, addDays, NY } = await import('../fixtures/dates');
const { startReceiver } = await import('../fixtures/receiver');
const { processStreamRecords } = await import('../../lib/use-cases/stream-to-bus');
const { applyStreamRecords } = await import('../../lib/use-cases/report-aggregation');
const { sweepReminders } = await import('../../lib/use-cases/reminders');
const { processWaitlistRecords, sweepWaitlist } = await import('../../lib/use-cases/waitlist-freed');
const { sweepPlans } = await import('../../lib/use-cases/plan-renewals');
const { passes } = await import('../../lib/workers/stream-filter');
const { workers, streamMappingOf } = await import('../../lib/workers');
/** Each stream worker's mapping filters (FilterCriteria, as synthesized from the same rows). */
const STREAM_FILTERS = Object.values(workers).flatMap((def) =>
  def.trigger.kind === 'stream' ? [streamMappingOf(def.trigger).filters] : [],
);
/** Stream worker invocations a request's records make at one practice: one per worker some record passes the filters of. */
const workersInvokedBy = (records: readonly unknown[]) =>
  STREAM_FILTERS.filter((filters) => records.some((record) => passes(filters, record))).length;
const { sweepWebhookRetries } = await import('../../lib/webhooks/retry-sweep');
const { fanOut, processDeliveryJob } = await import('../../lib/webhooks/jobs');
const { DynamoDBStreamsClient, DescribeStreamCommand, GetRecordsCommand, GetShardIteratorCommand } = await import(
  '@aws-sdk/client-dynamodb-streams'
);
const { latestStreamArn } = await import('../../infra/local/stream-poller');
const { tableName } = await import('../../lib/db/client');
const model = await import('./cost-model');
const { FLOORS } = await import('./cost-floors');
const { monthlyBill, WORKLOAD, describeWorkload, floorStack } = await import('./cost-workload');
const { synthesizedFixedCosts } = await import('./cost-stack');

const SAMPLES = Number(process.env.BENCH_COST_SAMPLES ?? 5);
const CPU_SAMPLES = Number(process.env.BENCH_COST_CPU_SAMPLES ?? 15);

const stack = await synthesizedFixedCosts();
const dynamo = await startBenchTable();
const meter = await startDdbMeter(dynamo.endpoint);
const useEndpoint = (endpoint: string) => {
  process.env.DYNAMODB_ENDPOINT = endpoint;
  resetConfig();
  resetDdb();
};
useEndpoint(meter.endpoint);
const receiver = await startReceiver();

// ---- The stream, read straight from DynamoDB Local (not metered: Lambda's reads of it are free).
const streams = new DynamoDBStreamsClient({
  endpoint: dynamo.endpoint,
  region: 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});
const streamArn = await latestStreamArn(tableName());
const positions = new Map<string, string | undefined>();
type Records = Parameters<typeof processStreamRecords>[0];
async function drainStream(): Promise<Records> {
  const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
  const records: Records = [];
  for (const shard of StreamDescription?.Shards ?? []) {
    const after = positions.get(shard.ShardId!);
    let { ShardIterator: iterator } = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: shard.ShardId!,
        ...(after
          ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: after }
          : { ShardIteratorType: 'TRIM_HORIZON' }),
      }),
    );
    while (iterator) {
      const answer = await streams.send(new GetRecordsCommand({ ShardIterator: iterator }));
      const got = answer.Records ?? [];
      if (got.length === 0) break;
      records.push(...(got as Records));
      positions.set(shard.ShardId!, got.at(-1)!.dynamodb!.SequenceNumber);
      iterator = answer.NextShardIterator;
    }
  }
  return records;
}
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- Log capture: every line a function writes, as CloudWatch would bill it.
let logBytes = 0;
for (const stream of [process.stdout, process.stderr]) {
  const write = stream.write.bind(stream);
  stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    if (capturing) {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      for (const line of text.split('\n').filter(Boolean))
        logBytes += Buffer.byteLength(line, 'utf8') + model.LOG_EVENT_OVERHEAD_BYTES;
      return true;
    }
    return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof stream.write;
}
let capturing = true; // until the report: the setup's and the runs' lines are the functions'

// ---- The scene: one practice as the workload describes it (3 providers, a day of 40 appointments).
const practice = await makePractice({ time_zone: 'America/New_York' });
const providers = await Promise.all(Array.from({ length: 3 }, () => makeProvider(practice)));
const providerIds = providers.map((p: { id: string }) => p.id);
const service = await makeService(practice, { provider_ids: providerIds, duration_minutes: 30, price_cents: 25000 });
const clients = await Promise.all(Array.from({ length: 20 }, () => makeClient(practice)));
await enableOnlineBooking(practice.medspaId, { max_active_bookings_per_client: 1000, horizon_days: 365 });
const publishableKey = (
  await call('POST', '/v1/publishable-keys', {
    token: practice.adminToken,
    body: { name: 'Booking page', allowed_origins: ['https://spa.example'] },
  })
).body.data.key as string;
const listDay = futureWeekday('mon', 3);
for (let i = 0; i < 40; i += 1) {
  const answer = await call('POST', '/v1/appointments', {
    token: practice.adminToken,
    body: {
      client_id: clients[i % 20].id,
      service_id: service.id,
      provider_id: providerIds[i % 3],
      scheduled_at: at(listDay, `${String(9 + Math.floor(i / 6)).padStart(2, '0')}:${i % 6 < 3 ? '00' : '30'}`, NY),
    },
  });
  if (answer.status !== 201) throw new Error(`seed: ${JSON.stringify(answer.body)}`);
}
// A second practice with one webhook subscription to appointment events (the subscribed create).
const hooked = await makePractice({ time_zone: 'America/New_York' });
const hookedProvider = await makeProvider(hooked);
const hookedService = await makeService(hooked, { provider_ids: [hookedProvider.id], duration_minutes: 30 });
const hookedClient = await makeClient(hooked);
const hook = await call('POST', '/v1/webhooks', {
  token: hooked.adminToken,
  body: { url: receiver.url('/hooks'), events: ['appointment.created', 'appointment.cancelled'] },
});
if (hook.status !== 201) throw new Error(`webhook: ${JSON.stringify(hook.body)}`);

/** Appointments to cancel, one per sample (made untimed, before the runs). */
const cancellable: string[] = [];
const bookDay = (n: number) => addDays(futureWeekday('mon', 5), Math.floor(n / 16));
const slotOf = (n: number) =>
  at(bookDay(n), `${String(9 + Math.floor((n % 16) / 2)).padStart(2, '0')}:${n % 2 ? '30' : '00'}`, NY);
let slot = 0;
for (let i = 0; i < SAMPLES + CPU_SAMPLES + 2; i += 1) {
  const answer = await call('POST', '/v1/appointments', {
    token: practice.adminToken,
    body: {
      client_id: clients[i % 20].id,
      service_id: service.id,
      provider_id: providerIds[2],
      scheduled_at: slotOf(slot++),
    },
  });
  cancellable.push(answer.body.data.id);
}
await drainStream();

// ---- The operations. Each sample is a fresh request (new times, ids and keys).
const from = addDays(listDay, 1);
const weekTo = addDays(from, 6);
/** What browsers and Node's fetch send: answers of 1 KB and more come back gzipped. */
const ACCEPT = { 'accept-encoding': 'gzip, deflate, br' };
const staff = {
  authorization: `Bearer ${practice.adminToken}`,
  'content-type': 'application/json',
  ...ACCEPT,
};
/** The list page's ETag as last read: a poll sends it back and finds nothing new (304). */
let lastListETag = '';
/** The desk's poll: the day's appointments, one page. */
const listDayRequest = (headers: Record<string, string>) => ({
  method: 'GET',
  url: `/v1/appointments?from=${listDay}&to=${listDay}&limit=50`,
  headers,
});
const ip = (n: number) => `198.51.100.${(Math.floor(n / 4) % 250) + 1}`; // a visitor makes 4 searches
interface Operation {
  name: string;
  /** The function (route) it runs in. */
  fn: string;
  request: (n: number) => Parameters<typeof dispatch>[0];
  kmsSigns?: number;
}
const operations: Operation[] = [
  {
    name: 'create',
    fn: 'createAppointment',
    request: () => ({
      method: 'POST',
      url: '/v1/appointments',
      headers: staff,
      body: JSON.stringify({
        client_id: clients[0].id,
        service_id: service.id,
        provider_id: providerIds[0],
        scheduled_at: slotOf(slot++),
      }),
    }),
  },
  {
    name: 'create+key',
    fn: 'createAppointment',
    request: () => ({
      method: 'POST',
      url: '/v1/appointments',
      headers: { ...staff, 'idempotency-key': randomUUID() },
      body: JSON.stringify({
        client_id: clients[1].id,
        service_id: service.id,
        provider_id: providerIds[1],
        scheduled_at: slotOf(slot++),
      }),
    }),
  },
  {
    name: 'list 1 day',
    fn: 'getAppointments',
    request: () => listDayRequest(staff),
  },
  {
    name: 'list 1 day (unchanged)',
    fn: 'getAppointments',
    request: () => listDayRequest({ ...staff, 'if-none-match': lastListETag }),
  },
  {
    name: 'get client',
    fn: 'getClient',
    request: (n) => ({ method: 'GET', url: `/v1/clients/${clients[n % 20].id}`, headers: staff }),
  },
  {
    name: 'search (staff)',
    fn: 'searchAvailability',
    request: () => ({
      method: 'GET',
      url: `/v1/availability?service_id=${service.id}&from=${from}&to=${weekTo}`,
      headers: staff,
    }),
  },
  {
    name: 'search (public)',
    fn: 'searchPublicAvailability',
    request: (n) => ({
      method: 'GET',
      url: `/v1/public/availability?service_id=${service.id}&from=${from}&to=${weekTo}`,
      headers: { 'x-publishable-key': publishableKey, origin: 'https://spa.example', ...ACCEPT },
      sourceIp: ip(n),
    }),
  },
  {
    name: 'public booking',
    fn: 'createPublicBooking',
    request: (n) => ({
      method: 'POST',
      url: '/v1/public/bookings',
      headers: {
        'x-publishable-key': publishableKey,
        origin: 'https://spa.example',
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
      },
      body: JSON.stringify({
        service_id: service.id,
        provider_id: providerIds[n % 3],
        scheduled_at: slotOf(slot++),
        client: { first_name: 'Robin', last_name: 'Online', email: `robin.${randomUUID()}@example.com` },
      }),
      sourceIp: ip(n),
    }),
  },
  {
    name: 'cancel',
    fn: 'cancelAppointment',
    request: () => ({
      method: 'POST',
      url: `/v1/appointments/${cancellable.pop()}/cancel`,
      headers: staff,
      body: JSON.stringify({ reason: 'Client is travelling' }),
    }),
  },
  {
    name: 'create+webhook',
    fn: 'createAppointment',
    request: () => ({
      method: 'POST',
      url: '/v1/appointments',
      headers: {
        authorization: `Bearer ${hooked.adminToken}`,
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
      },
      body: JSON.stringify({
        client_id: hookedClient.id,
        service_id: hookedService.id,
        provider_id: hookedProvider.id,
        scheduled_at: slotOf(slot++),
      }),
    }),
  },
  {
    name: 'token',
    fn: 'createToken',
    request: (n) => ({
      method: 'POST',
      url: '/v1/auth/token',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: practice.clientId, client_secret: practice.clientSecret }),
      sourceIp: ip(n),
    }),
    // kms:Sign on AWS (a local key file here): one more round trip, and an asymmetric request.
    kmsSigns: 1,
  },
];

const responseBytes = (answer: Awaited<ReturnType<typeof dispatch>>) => {
  const body = answer.isBase64Encoded
    ? Buffer.from(answer.body, 'base64').length
    : Buffer.byteLength(answer.body ?? '');
  const headers = Object.entries(answer.headers).reduce(
    (sum, [name, value]) => sum + name.length + String(value).length + 4,
    0,
  );
  return 'HTTP/1.1 200 OK\r\n\r\n'.length + headers + body;
};

/** Runs what AWS would run after the request: stream workers, the bus, fan-out, deliveries; until nothing new. */
async function pipeline() {
  const usage = {
    streamBatches: 0,
    streamRecords: 0,
    streamWorkerMs: 0,
    queueMessages: 0,
    queueWorkerMs: 0,
    eventBridgeEntries: 0,
    webhookBytes: 0,
    readUnits: 0,
    writeUnits: 0,
    storageBytes: 0,
    ttlItems: 0,
  };
  const count = (metered: ReturnType<typeof meter.take>) => {
    usage.readUnits += metered.readUnits;
    usage.writeUnits += metered.writeUnits;
    usage.storageBytes += metered.storageBytes;
    usage.ttlItems += metered.ttlItems;
    return model.billedMs(metered.steps, metered.calls.length * model.SDK_CPU_MS_PER_CALL);
  };
  for (let generation = 0; generation < 5; generation += 1) {
    await pause(30);
    const records = await drainStream();
    if (records.length === 0) break;
    usage.streamBatches += workersInvokedBy(records);
    usage.streamRecords += records.length;
    const events: Parameters<typeof fanOut>[0][] = [];
    await processStreamRecords(records, { publish: async (published) => void events.push(...published) });
    usage.streamWorkerMs += count(meter.take());
    await applyStreamRecords(records);
    usage.streamWorkerMs += count(meter.take());
    await processWaitlistRecords(records as Parameters<typeof processWaitlistRecords>[0]);
    usage.streamWorkerMs += count(meter.take());
    usage.eventBridgeEntries += events.length;
    for (const event of events) {
      const jobs: Parameters<typeof processDeliveryJob>[0][] = [];
      await fanOut(event, { send: async (job) => void jobs.push(job) });
      usage.queueMessages += 1;
      usage.queueWorkerMs += count(meter.take());
      for (const job of jobs) {
        const before = receiver.requests.length;
        await processDeliveryJob(job, { send: async () => undefined }, { allowLocal: true });
        usage.queueMessages += 1;
        usage.queueWorkerMs += count(meter.take());
        for (const sent of receiver.requests.slice(before)) usage.webhookBytes += Buffer.byteLength(sent.body) + 600; // + request headers
      }
    }
  }
  return usage;
}

type Usage = import('./cost-model').OpUsage;
const measured = new Map<string, { usage: Usage; calls: Record<string, number>; statuses: number[] }>();
for (const operation of operations) {
  const samples: Usage[] = [];
  let calls: Record<string, number> = {};
  const statuses: number[] = [];
  for (let n = -1; n < SAMPLES; n += 1) {
    await pipeline();
    meter.take();
    logBytes = 0;
    capturing = true;
    if (process.env.BENCH_COST_TRACE) writeSync(2, `# ${operation.name} (sample ${n + 1}): request\n`);
    const answer = await dispatch(operation.request(n + 1));
    if (operation.name === 'list 1 day') lastListETag = answer.headers.etag ?? '';
    const handler = meter.take();
    if (process.env.BENCH_COST_TRACE) writeSync(2, `# ${operation.name} (sample ${n + 1}): pipeline\n`);
    const after = await pipeline();
    if (n < 0) continue; // the first warms the container (modules, the credential cache)
    statuses.push(answer.status);
    calls = handler.byOperation;
    samples.push({
      apiRequests: 1,
      readUnits: handler.readUnits + after.readUnits,
      writeUnits: handler.writeUnits + after.writeUnits,
      storageBytes: handler.storageBytes + after.storageBytes,
      // Items with a TTL make one more record each when they expire, alone; it passes no worker's
      // filters (rate-limit buckets and idempotency records are no kind a worker takes).
      streamBatches: after.streamBatches,
      streamRecords: after.streamRecords + handler.ttlItems + after.ttlItems,
      handlerMs: handler.steps + (operation.kmsSigns ?? 0), // steps for now; CPU added below
      streamWorkerMs: after.streamWorkerMs,
      queueMessages: after.queueMessages,
      queueWorkerMs: after.queueWorkerMs,
      eventBridgeEntries: after.eventBridgeEntries,
      logBytes,
      responseBytes: responseBytes(answer),
      webhookBytes: after.webhookBytes,
      kmsSigns: operation.kmsSigns ?? 0,
    });
  }
  const mean = Object.fromEntries(
    Object.keys(samples[0]!).map((field) => [
      field,
      samples.reduce((sum, s) => sum + s[field as keyof Usage], 0) / samples.length,
    ]),
  ) as unknown as Usage;
  measured.set(operation.name, { usage: mean, calls, statuses });
}

// The scheduled sweeps (whatever the load): each one's steady-state run, metered (a first run
// settles its checkpoint), with the stream records it writes.
const noQueue = { send: async () => {} } as unknown as Parameters<typeof sweepWebhookRetries>[1];
const SWEEPS = [
  { line: 'reminder sweep', fn: 'sweepReminders', everyMinutes: 1, run: (at: Date) => sweepReminders(at) },
  {
    line: 'webhook retry sweep',
    fn: 'sweepWebhookRetries',
    everyMinutes: 1,
    run: (at: Date) => sweepWebhookRetries(at, noQueue),
  },
  { line: 'waitlist sweep', fn: 'sweepWaitlist', everyMinutes: 1, run: (at: Date) => sweepWaitlist(at) },
  { line: 'plan renewal sweep', fn: 'sweepPlans', everyMinutes: 60, run: (at: Date) => sweepPlans(at) },
];
const sweepRuns: import('./cost-workload').ScheduledRun[] = [];
for (const { run, everyMinutes, ...sweep } of SWEEPS) {
  await run(new Date());
  meter.take();
  await drainStream();
  await run(new Date(Date.now() + everyMinutes * 60_000));
  const metered = meter.take();
  const records = await drainStream();
  sweepRuns.push({
    ...sweep,
    everyMinutes,
    run: {
      ...model.NO_USAGE,
      readUnits: metered.readUnits,
      writeUnits: metered.writeUnits,
      streamBatches: workersInvokedBy(records),
      streamRecords: records.length,
      handlerMs: model.billedMs(metered.steps, metered.calls.length * model.SDK_CPU_MS_PER_CALL),
    },
  });
}

// ---- CPU of each handler, warm, against DynamoDB Local directly (the meter's own work left out).
useEndpoint(dynamo.endpoint);
const cpu = new Map<string, number>();
for (const operation of operations) {
  const values: number[] = [];
  for (let n = 0; n < CPU_SAMPLES; n += 1) {
    capturing = true;
    const started = process.cpuUsage();
    const answer = await dispatch(operation.request(1000 + n));
    if (operation.name === 'list 1 day') lastListETag = answer.headers.etag ?? '';
    const used = process.cpuUsage(started);
    values.push((used.user + used.system) / 1000);
  }
  values.sort((a, b) => a - b);
  cpu.set(operation.name, values[Math.floor(values.length / 2)]!);
}
for (const operation of operations) {
  const entry = measured.get(operation.name)!;
  entry.usage.handlerMs = model.billedMs(entry.usage.handlerMs, cpu.get(operation.name)!);
}

// ---- Prices, floors, bills.
const usages = Object.fromEntries([...measured].map(([name, { usage }]) => [name, usage]));
const fnOf = Object.fromEntries(operations.map((o) => [o.name, o.fn]));
const one = monthlyBill({ practices: 1, usages, fnOf, sweeps: sweepRuns, stack });
const many = monthlyBill({ practices: 1000, usages, fnOf, sweeps: sweepRuns, stack });
// The floors' bills: every operation at its floor (cost-floors.ts), the sweeps as measured (the
// contract's reminders and retries), the least fixed costs that keep our security (floorStack).
const floorUsages = Object.fromEntries(
  Object.entries(usages).map(([name, usage]) => [name, FLOORS[name]!(usage).usage]),
);
const floorInput = {
  usages: floorUsages,
  fnOf,
  sweeps: sweepRuns,
  stack: floorStack(stack),
};
const oneFloor = monthlyBill({ practices: 1, ...floorInput });
const manyFloor = monthlyBill({ practices: 1000, ...floorInput });
const GOALS = { many: 1.25, one: 8 };
const verdicts = {
  many: model.goalVerdict(GOALS.many, many.total / 1000, manyFloor.total / 1000),
  one: model.goalVerdict(GOALS.one, one.total, oneFloor.total),
};

capturing = false;
const money = (usd: number) => (usd >= 100 ? usd.toFixed(0) : usd >= 1 ? usd.toFixed(2) : usd.toFixed(3));
console.log(
  `\nmedspa-api bench:cost (${SAMPLES} metered samples an operation, CPU ${CPU_SAMPLES}; prices ${stack.pricesLabel})`,
);
console.log(
  `${'operation'.padEnd(16)} ${'RRU'.padStart(6)} ${'WRU'.padStart(6)} ${'strm'.padStart(5)} ${'inv'.padStart(5)} ${'EB'.padStart(3)} ${'SQS'.padStart(4)} ${'log B'.padStart(6)} ${'resp B'.padStart(7)} ${'ms'.padStart(4)} | ${'$/1M ops'.padStart(9)} | floor: ${'RRU'.padStart(5)} ${'WRU'.padStart(5)} ${'$/1M'.padStart(8)} | ratio   calls`,
);
const ratios: string[] = [];
for (const operation of operations) {
  const { usage, calls, statuses } = measured.get(operation.name)!;
  const floor = FLOORS[operation.name]!(usage);
  const ours = model.total(model.opCost(operation.fn, usage, many.context)) * 1e6;
  const floorCost = model.total(model.opCost(operation.fn, floor.usage, many.context)) * 1e6;
  const ratio = ours / floorCost;
  if (ratio > 1.5) ratios.push(`${operation.name} ${ratio.toFixed(1)}x`);
  const bad = statuses.filter((s) => s >= 400);
  console.log(
    `${operation.name.padEnd(16)} ${usage.readUnits.toFixed(1).padStart(6)} ${usage.writeUnits.toFixed(1).padStart(6)} ${usage.streamRecords.toFixed(1).padStart(5)} ${model.invocationsOf(usage, many.context).toFixed(1).padStart(5)} ${usage.eventBridgeEntries.toFixed(0).padStart(3)} ${(usage.queueMessages * 3).toFixed(0).padStart(4)} ${usage.logBytes.toFixed(0).padStart(6)} ${usage.responseBytes.toFixed(0).padStart(7)} ${usage.handlerMs.toFixed(0).padStart(4)} | ${money(ours).padStart(9)} | floor: ${floor.usage.readUnits.toFixed(1).padStart(5)} ${floor.usage.writeUnits.toFixed(1).padStart(5)} ${money(floorCost).padStart(8)} | ${ratio.toFixed(2).padStart(5)}x ${Object.entries(
      calls,
    )
      .map(([op, n]) => `${op.replace(/Item|Items/, '')} ${n}`)
      .join(', ')}${bad.length ? ` (HTTP ${bad.join(',')}!)` : ''}`,
  );
}
console.log(
  "  (units and counts per operation, request and pipeline; inv = Lambda invocations at 1,000 practices; ms = the API invocation's billed ms; $ at 1,000 practices)",
);
// BENCH_COST_TRACE=1: each operation's $ per 1M by bill line, ours against its floor's.
if (process.env.BENCH_COST_TRACE)
  for (const operation of operations) {
    const lines = model.opCost(operation.fn, usages[operation.name]!, many.context);
    const floorLines = model.opCost(operation.fn, FLOORS[operation.name]!(usages[operation.name]!).usage, many.context);
    console.log(
      `  ${operation.name}: ${Object.entries(lines)
        .filter(([line, usd]) => usd > 0 || floorLines[line]! > 0)
        .map(([line, usd]) => `${line} ${money(usd * 1e6)}/${money(floorLines[line]! * 1e6)}`)
        .join(', ')}`,
    );
  }
for (const { line, everyMinutes, run } of sweepRuns)
  console.log(
    `${line}: every ${everyMinutes === 1 ? 'minute' : `${everyMinutes} minutes`}, ${run.readUnits.toFixed(1)} RRU + ${run.writeUnits.toFixed(1)} WRU a run, ${run.streamRecords} stream record(s)`,
  );
for (const line of describeWorkload(WORKLOAD)) console.log(line);
/** The floor bill's fixed lines (web ACL and rules, keys, secrets, idle polling), named with their dollars. */
const fixedFloorText = (bill: typeof one) => {
  const fixed = Object.entries(bill.lines).filter(([line]) => /^(WAF|KMS keys|Secrets|SQS idle)/.test(line));
  const sum = fixed.reduce((total, [, usd]) => total + usd, 0);
  return `$${sum.toFixed(2)} (${fixed.map(([line, usd]) => `${line} $${usd.toFixed(2)}`).join(', ')})`;
};
const printBill = (bill: typeof one, title: string) => {
  console.log(
    `\n${title}, ${bill.practices.toLocaleString('en-US')} practice${bill.practices > 1 ? 's' : ''}: $${money(bill.total)} ($${money(bill.total / bill.practices)} a practice)`,
  );
  for (const [line, usd] of Object.entries(bill.lines)
    .sort((a, b) => b[1] - a[1])
    .filter(([, usd]) => usd >= 0.005))
    console.log(
      `  ${line.padEnd(62)} $${money(usd).padStart(8)}  ${((100 * usd) / bill.total).toFixed(1).padStart(5)}%`,
    );
};
for (const bill of [one, many]) printBill(bill, 'monthly bill');
// The floor of each goal not met: the least any build keeping the guarantees and our edge security could cost.
if (!verdicts.one.met) printBill(oneFloor, 'floor (operations at their floors, least fixed costs; docs/cost.md)');
if (!verdicts.many.met) printBill(manyFloor, 'floor (operations at their floors, least fixed costs; docs/cost.md)');
console.log(
  `\nfloor goal: every operation within 1.5x its floor's cost at 1,000 practices -> ${ratios.length === 0 ? 'met' : `NOT met (${ratios.join(', ')})`}`,
);
console.log(
  `cost: 1,000 practices $${(many.total / 1000).toFixed(2)} a practice a month (goal ${GOALS.many}); one practice alone $${one.total.toFixed(2)} a month (goal ${GOALS.one})`,
);
console.log(
  `floors: 1,000 practices ${model.describeVerdict(verdicts.many)}; one practice alone ${model.describeVerdict(verdicts.one)}${
    verdicts.one.reachable ? '' : `: its fixed lines alone ${fixedFloorText(oneFloor)}`
  }`,
);

await receiver.close();
await meter.close();
streams.destroy();
await dynamo.stop();
process.exit(0);
