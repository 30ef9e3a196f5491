/**
 * `npm run bench` (events part): end-to-end latency from the API's 201 to the subscriber's
 * request through the local pipeline (stream poller -> events -> rules -> fan-out -> signed
 * delivery), and delivery throughput with a healthy receiver.
 */
import { performance } from 'node:perf_hooks';
import { benchEnvironment, startBenchTable } from './bench-table';
benchEnvironment('bench_events');
process.env.ALLOW_LOCAL_WEBHOOKS = 'true';
process.env.RATE_LIMIT_RPS = '0';
process.env.TOKEN_ISSUER = 'medspa-api-local';

const { startLocalPipeline } = await import('../../infra/local/pipeline');
const { call, makePractice } = await import('../fixtures/api');
const { makeClient } = await import('../fixtures/builders');
const { startReceiver } = await import('../fixtures/receiver');

const SAMPLES = Number(process.env.BENCH_EVENT_SAMPLES ?? 40);
const THROUGHPUT_EVENTS = Number(process.env.BENCH_THROUGHPUT_EVENTS ?? 300);

const dynamo = await startBenchTable();
const receiver = await startReceiver();
const pipeline = await startLocalPipeline({ sweepEveryMs: 60_000 });
const practice = await makePractice();
const hook = await call('POST', '/v1/webhooks', {
  token: practice.adminToken,
  body: { url: receiver.url('/hooks'), events: ['client.created'] },
});
if (hook.status !== 201) throw new Error(`subscription failed: ${JSON.stringify(hook.body)}`);

const arrivals = new Map<string, number>();
const seen = () => {
  for (const request of receiver.accepted) {
    const id = JSON.parse(request.body).data?.object?.id as string | undefined;
    if (id && !arrivals.has(id)) arrivals.set(id, performance.now());
  }
};
const until = async (done: () => boolean, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for deliveries');
    seen();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

// Latency: one client at a time, 201 -> the receiver's request.
const latencies: number[] = [];
for (let i = 0; i < SAMPLES; i += 1) {
  const client = await makeClient(practice);
  const answeredAt = performance.now();
  await until(() => arrivals.has(client.id), 30_000);
  latencies.push(arrivals.get(client.id)! - answeredAt);
}
latencies.sort((a, b) => a - b);
const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];

// Throughput: many creates at once, time until every event is delivered.
const started = performance.now();
const created = await Promise.all(Array.from({ length: THROUGHPUT_EVENTS }, () => makeClient(practice)));
await until(() => created.every((client) => arrivals.has(client.id)), 120_000);
const seconds = (performance.now() - started) / 1000;

console.log(
  `events   201 -> subscriber p50 ${pct(50).toFixed(1)} ms, p99 ${pct(99).toFixed(1)} ms (${SAMPLES} samples; goal p50 < 1000 ms)`,
);
console.log(
  `events   throughput ${(THROUGHPUT_EVENTS / seconds).toFixed(1)} events/s delivered (${THROUGHPUT_EVENTS} client.created, healthy receiver, ${seconds.toFixed(1)} s)`,
);

await pipeline.stop();
await receiver.close();
await dynamo.stop();
process.exit(0);
