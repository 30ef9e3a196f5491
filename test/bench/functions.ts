/**
 * The bench's function lines: every function built with the construct's esbuild settings (one
 * esbuild call), bundle sizes over all of them, and cold import + first invocation per function.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildFunctions, type FunctionBundle } from '../../infra/bundles';
import { SOURCE_MAPS } from '../../infra/constructs/bundling';
import { lambdaContext, toEvent } from '../../infra/local/router';
import { handlerModule, type RouteDef } from '../../lib/http/route';
import { routes } from '../../lib/routes';
import { byFunction, measureColdStarts, percentile, type ColdStart, type Invocation } from './cold-start';

const projectRoot = join(import.meta.dirname, '..', '..');
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

export async function buildAll(options: { sourceMaps?: boolean } = {}) {
  const outdir = mkdtempSync(join(tmpdir(), 'medspa-bundles-'));
  const started = performance.now();
  const { bundles } = await buildFunctions(projectRoot, outdir, undefined, options);
  return { bundles, outdir, buildMs: performance.now() - started };
}

/** min / median / max over all functions, and the three largest by name. */
export function sizeLines(bundles: FunctionBundle[], buildMs: number): string[] {
  const sorted = [...bundles].sort((a, b) => a.bytes - b.bytes);
  const median = percentile(sorted.map((b) => b.bytes), 50);
  const largest = sorted.slice(-3).reverse().map((b) => `${b.name.replace(/^functions\//, '')} ${kb(b.bytes)}`);
  const goal = sorted.at(-1)!.bytes <= 500 * 1024 && median <= 400 * 1024;
  return [
    `bundles  ${bundles.length} functions (minified, AWS SDK included, built in ${(buildMs / 1000).toFixed(1)} s): min ${kb(sorted[0]!.bytes)}, median ${kb(median)}, max ${kb(sorted.at(-1)!.bytes)} | largest: ${largest.join(', ')}`,
    `bundle goal: every bundle <= 500 KB, median <= 400 KB -> ${goal ? 'met' : 'NOT met'}`,
  ];
}

export interface SeededIds {
  medspaId: string;
  token: string;
  providerId: string;
  serviceId: string;
  clientId: string;
  /** A practice-local date with free time for the providers. */
  date: string;
  /** Start of a free half hour for the n-th cold create (distinct per sample). */
  freeSlot: (n: number) => string;
  credential: { client_id: string; client_secret: string };
}

const operationsByModule = new Map(Object.entries(routes as Record<string, RouteDef>).map(([operation, route]) => [handlerModule(operation, route), [operation, route] as const]));

/**
 * The first request of a cold start: a real one for the operations the bench also times warm
 * (create, list, slots), the token exchange and health; for the other routes an authenticated
 * request on an unknown id or with an empty body (answered 404 / 400 after the token, the access
 * check and the input parse, each of which does its work). Workers get an empty batch.
 */
export function invocationFor(ids: SeededIds, sample: number) {
  return (bundle: FunctionBundle): Invocation => {
    const requestId = randomUUID();
    const module = bundle.name;
    if (module.startsWith('functions/workers/')) {
      const worker = module.slice('functions/workers/'.length);
      const event = worker === 'sweepReminders' ? { 'detail-type': 'Scheduled Event', source: 'aws.events', time: new Date().toISOString() } : { Records: [] };
      return { event, context: plain(lambdaContext(worker, requestId)) };
    }
    const [operation, route] = operationsByModule.get(module) ?? [];
    if (!operation || !route) throw new Error(`no route for ${module}`);
    const auth = route.auth === 'public' ? {} : { authorization: `Bearer ${ids.token}` };
    const request = (url: string, body?: unknown) => ({ method: route.method, url, headers: { ...auth, 'content-type': 'application/json', host: 'bench' }, body: body === undefined ? undefined : JSON.stringify(body) });
    let params: Record<string, string> = {};
    let call;
    switch (operation) {
      case 'createAppointment':
        call = request('/v1/appointments', { client_id: ids.clientId, service_id: ids.serviceId, provider_id: ids.providerId, scheduled_at: ids.freeSlot(sample) });
        break;
      case 'getAppointments':
        call = request(`/v1/appointments?startDate=${ids.date}&endDate=${ids.date}&limit=50`);
        break;
      case 'getAvailableSlots':
        params = { id: ids.providerId };
        call = request(`/v1/providers/${ids.providerId}/slots?date=${ids.date}&duration_minutes=30`);
        break;
      case 'createToken':
        call = request('/v1/auth/token', { client_id: ids.credential.client_id, client_secret: ids.credential.client_secret });
        break;
      default: {
        params = Object.fromEntries([...route.path.matchAll(/\{(\w+)\+?\}/g)].map(([, name]) => [name!, name === 'proxy' ? 'nowhere' : randomUUID()]));
        const path = route.path.replace(/\{(\w+)\+?\}/g, (_, name: string) => params[name]!);
        call = request(path, route.method === 'GET' || route.method === 'DELETE' ? undefined : {});
      }
    }
    return { event: toEvent(call, { route }, params, requestId), context: plain(lambdaContext(operation, requestId)) };
  };
}

/** A Lambda context without its functions (the runner adds what a handler calls). */
const plain = (context: object) => JSON.parse(JSON.stringify(context)) as Record<string, unknown>;

export async function coldStarts(options: { bundles: FunctionBundle[]; outdir: string; ids: SeededIds; samples: number; env: NodeJS.ProcessEnv; sourceMaps?: boolean }): Promise<ColdStart[]> {
  // The runtime flag goes with the build: maps beside the bundles are only read with it.
  const nodeOptions = options.sourceMaps ?? SOURCE_MAPS ? ['--enable-source-maps'] : [];
  const results: ColdStart[] = [];
  for (let sample = 0; sample < options.samples; sample += 1) {
    results.push(...(await measureColdStarts({ bundles: options.bundles, invocation: invocationFor(options.ids, sample), samples: 1, env: options.env, nodeOptions, workDir: options.outdir })));
  }
  return results;
}

export function coldLines(results: ColdStart[], label: string): string[] {
  const totals = results.map((r) => r.totalMs);
  const imports = results.map((r) => r.importMs);
  const firsts = results.map((r) => r.firstMs);
  const slowest = byFunction(results).slice(0, 3).map((f) => `${f.name.replace(/^functions\//, '')} ${f.p50.toFixed(0)} ms`);
  const functions = new Set(results.map((r) => r.name)).size;
  return [
    `cold     ${label}: import + first invocation p50 ${percentile(totals, 50).toFixed(1)} ms (import ${percentile(imports, 50).toFixed(1)} ms, first invocation ${percentile(firsts, 50).toFixed(1)} ms), p99 ${percentile(totals, 99).toFixed(1)} ms over ${functions} functions x ${results.length / functions} | slowest p50: ${slowest.join(', ')}`,
  ];
}
