/**
 * The bench's function lines: every function built with the construct's esbuild settings (one
 * esbuild call), bundle sizes over all of them, and cold import + first invocation per function.
 */
import { createPublicKey, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { buildFunctions, type FunctionBundle } from '../../infra/bundles';
import { SOURCE_MAPS } from '../../infra/constructs/bundling';
import { lambdaContext, toEvent } from '../../infra/local/router';
import { handlerModule, readsTable, type RouteDef } from '../../lib/http/route';
import { routes } from '../../lib/routes';
import { practiceKey } from '../../lib/db/keys';
import { keyFromFile } from '../../lib/auth/key-file';
import { scratchDir } from './bench-table';
import { byFunction, measureColdStarts, percentile, type ColdStart, type Invocation } from './cold-start';
import type { LibrariesFloorEvent } from './cold-floor-libraries';
import { startDdbRecorder, type RecordedCall } from './ddb-recorder';

const projectRoot = join(import.meta.dirname, '..', '..');
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

/** The cold-start floor's module (./cold-floor.ts): one GetItem with the SDK, nothing else. */
export const COLD_FLOOR = 'test/bench/cold-floor';
/** The same-calls floor's module (./cold-floor-calls.ts): a function's own DynamoDB calls, replayed with the bare SDK. */
const CALLS_FLOOR = 'test/bench/cold-floor-calls';
/** The libraries floor's module (./cold-floor-libraries.ts): one GetItem plus the token check, a parse and a log line. */
export const LIBRARIES_FLOOR = 'test/bench/cold-floor-libraries';
/** How a function's same-calls floor is named among the results. */
export const SAME_CALLS = ' [same calls]';

/** The named functions (default: all) and the cold-start floor, with the construct's settings. */
export async function buildAll(options: { sourceMaps?: boolean; modules?: string[] } = {}) {
  // Kept when built with maps: the profiles printed name them, to be read again.
  const outdir = scratchDir('medspa-bundles-', options.sourceMaps);
  const started = performance.now();
  const { bundles } = await buildFunctions(projectRoot, outdir, options.modules, options);
  const buildMs = performance.now() - started;
  const [floor, callsFloor, librariesFloor] = (
    await buildFunctions(projectRoot, outdir, [COLD_FLOOR, CALLS_FLOOR, LIBRARIES_FLOOR], options)
  ).bundles;
  return { bundles, floor: floor!, callsFloor: callsFloor!, librariesFloor: librariesFloor!, outdir, buildMs };
}

/** min / median / max over all functions, and the three largest by name. */
export function sizeLines(bundles: FunctionBundle[], buildMs: number): string[] {
  const sorted = [...bundles].sort((a, b) => a.bytes - b.bytes);
  const median = percentile(
    sorted.map((b) => b.bytes),
    50,
  );
  const largest = sorted
    .slice(-3)
    .reverse()
    .map((b) => `${b.name.replace(/^functions\//, '')} ${kb(b.bytes)}`);
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
  /** A publishable key of the practice (online booking on), for the public routes. */
  publishableKey: string;
  /** A service with 3 providers working 09:00-17:00, for the availability search from `date` over 14 days. */
  searchServiceId: string;
}

/** The last date of the bench's availability search (14 days from `date`, both inclusive). */
export const searchTo = (ids: SeededIds) => new Date(Date.parse(ids.date) + 13 * 86_400_000).toISOString().slice(0, 10);

const operationsByModule = new Map(
  Object.entries(routes as Record<string, RouteDef>).map(([operation, route]) => [
    handlerModule(operation, route),
    [operation, route] as const,
  ]),
);

/**
 * The first request of a cold start: a real one for the operations the bench also times warm
 * (create, list, slots, availability search, get client), the token exchange and health; for the
 * other routes an authenticated request on an unknown id or with an empty body (answered 404 / 400
 * after the token, the access check and the input parse, each of which does its work). Workers get
 * an empty batch.
 */
export function invocationFor(ids: SeededIds, sample: number) {
  return (bundle: FunctionBundle): Invocation => {
    const requestId = randomUUID();
    const module = bundle.name;
    if (module === COLD_FLOOR)
      return { event: practiceKey(ids.medspaId), context: plain(lambdaContext('floor', requestId)) };
    if (module.startsWith('functions/workers/')) {
      const worker = module.slice('functions/workers/'.length);
      const event =
        worker === 'sweepReminders'
          ? { 'detail-type': 'Scheduled Event', source: 'aws.events', time: new Date().toISOString() }
          : { Records: [] };
      return { event, context: plain(lambdaContext(worker, requestId)) };
    }
    const [operation, route] = operationsByModule.get(module) ?? [];
    if (!operation || !route) throw new Error(`no route for ${module}`);
    const auth: Record<string, string> =
      route.auth === 'public'
        ? {}
        : route.auth === 'publishable'
          ? { 'x-publishable-key': ids.publishableKey }
          : { authorization: `Bearer ${ids.token}` };
    // A preflight as a browser sends it, from an origin a practice may allow.
    const preflight: Record<string, string> = route.preflight
      ? { origin: 'https://spa.example', 'access-control-request-method': 'GET' }
      : {};
    const request = (url: string, body?: unknown) => ({
      method: route.method,
      url,
      headers: { ...auth, ...preflight, 'content-type': 'application/json', host: 'bench' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    let params: Record<string, string> = {};
    let call: ReturnType<typeof request>;
    switch (operation) {
      case 'createAppointment':
        call = request('/v1/appointments', {
          client_id: ids.clientId,
          service_id: ids.serviceId,
          provider_id: ids.providerId,
          scheduled_at: ids.freeSlot(sample),
        });
        break;
      case 'getAppointments':
        call = request(`/v1/appointments?startDate=${ids.date}&endDate=${ids.date}&limit=50`);
        break;
      case 'getAvailableSlots':
        params = { id: ids.providerId };
        call = request(`/v1/providers/${ids.providerId}/slots?date=${ids.date}&duration_minutes=30`);
        break;
      case 'searchAvailability':
        call = request(`/v1/availability?service_id=${ids.searchServiceId}&from=${ids.date}&to=${searchTo(ids)}`);
        break;
      case 'getClient':
        params = { id: ids.clientId };
        call = request(`/v1/clients/${ids.clientId}`);
        break;
      case 'createToken':
        call = request('/v1/auth/token', {
          client_id: ids.credential.client_id,
          client_secret: ids.credential.client_secret,
        });
        break;
      default: {
        // The preflight of a path a browser calls (its answer is 204); the 404 of one nothing serves.
        const proxy = route.preflight ? 'public/services' : 'nowhere';
        params = Object.fromEntries(
          [...route.path.matchAll(/\{(\w+)\+?\}/g)].map(([, name]) => [name!, name === 'proxy' ? proxy : randomUUID()]),
        );
        const path = route.path.replace(/\{(\w+)\+?\}/g, (_, name: string) => params[name]!);
        call = request(path, route.method === 'GET' || route.method === 'DELETE' ? undefined : {});
      }
    }
    return { event: toEvent(call, { route }, params, requestId), context: plain(lambdaContext(operation, requestId)) };
  };
}

/** A Lambda context without its functions (the runner adds what a handler calls). */
const plain = (context: object) => JSON.parse(JSON.stringify(context)) as Record<string, unknown>;

/**
 * What each API function's first invocation asks of DynamoDB: one untimed cold start per function
 * through the recording proxy (its own sample index, so a create takes a slot of its own).
 */
async function recordCalls(options: {
  bundles: FunctionBundle[];
  outdir: string;
  ids: SeededIds;
  env: NodeJS.ProcessEnv;
  nodeOptions: string[];
}) {
  const recorder = await startDdbRecorder(String(options.env.DYNAMODB_ENDPOINT));
  const calls = new Map<string, RecordedCall[]>();
  try {
    // The routes that never read the table (health, JWKS, the documents, preflight, the 404) make
    // no call to replay, and a floor that imports the SDK they leave out would be no floor of theirs.
    for (const bundle of options.bundles.filter((b) => readsTableOf(b.name))) {
      await measureColdStarts({
        bundles: [bundle],
        invocation: invocationFor(options.ids, RECORDING_SAMPLE),
        samples: 1,
        env: { ...options.env, DYNAMODB_ENDPOINT: recorder.endpoint },
        nodeOptions: options.nodeOptions,
        workDir: options.outdir,
      });
      calls.set(bundle.name, recorder.take());
    }
  } finally {
    await recorder.close();
  }
  return calls;
}
const RECORDING_SAMPLE = 10_000;
/** An API function whose route reads the table (the others have no same-calls floor). */
const readsTableOf = (module: string) => {
  const [, route] = operationsByModule.get(module) ?? [];
  return route !== undefined && readsTable(route);
};
/** Functions between two samples of each floor in a round (./cold-floor.ts, ./cold-floor-libraries.ts). */
const FLOOR_EVERY = 8;

/**
 * Cold starts of the functions with the floors among them: the one-GetItem floor (results named
 * COLD_FLOOR), the libraries floor (LIBRARIES_FLOOR) and, after each API function, its own recorded
 * calls made raw (named `<function> [same calls]`), so drift on the machine lands on both sides of
 * each ratio.
 */
export async function coldStarts(options: {
  bundles: FunctionBundle[];
  floor: FunctionBundle;
  callsFloor: FunctionBundle;
  librariesFloor: FunctionBundle;
  outdir: string;
  ids: SeededIds;
  samples: number;
  env: NodeJS.ProcessEnv;
  sourceMaps?: boolean;
  extraNodeOptions?: string[];
}): Promise<ColdStart[]> {
  // The runtime flag goes with the build: maps beside the bundles are only read with it.
  const runtimeOptions = (options.sourceMaps ?? SOURCE_MAPS) ? ['--enable-source-maps'] : [];
  const nodeOptions = [...runtimeOptions, ...(options.extraNodeOptions ?? [])];
  const recorded = await recordCalls({ ...options, nodeOptions: runtimeOptions });
  const sameCalls = (name: string): FunctionBundle => ({ ...options.callsFloor, name: `${name}${SAME_CALLS}` });
  // The two floors are every function's denominator, so they are sampled FLOOR_EVERY functions
  // apart through each round, not once per round: five samples of one floor let its p50 swing
  // 85-130 ms between runs while ours, pooled over 92 functions, held still.
  const order = options.bundles.flatMap((bundle, i) => [
    ...(i % FLOOR_EVERY === 0 ? [options.floor, options.librariesFloor] : []),
    ...(recorded.has(bundle.name) ? [bundle, sameCalls(bundle.name)] : [bundle]),
  ]);
  // The token the API functions get, checked against the key they read (this process's DATA_DIR is theirs).
  const { tokenPublicJwk } = await import('../../lib/auth/token-key');
  const { TOKEN_AUDIENCE } = await import('../../lib/auth/tokens');
  const { config } = await import('../../lib/config');
  const librariesEvent: LibrariesFloorEvent = {
    key: practiceKey(options.ids.medspaId),
    token: options.ids.token,
    jwk: tokenPublicJwk(),
    issuer: config().TOKEN_ISSUER,
    audience: TOKEN_AUDIENCE,
  };
  const results: ColdStart[] = [];
  for (let sample = 0; sample < options.samples; sample += 1) {
    const ours = invocationFor(options.ids, sample);
    const invocation = (bundle: FunctionBundle): Invocation => {
      if (bundle.name === LIBRARIES_FLOOR)
        return { event: librariesEvent, context: plain(lambdaContext('librariesFloor', randomUUID())) };
      if (!bundle.name.endsWith(SAME_CALLS)) return ours(bundle);
      return {
        event: { calls: recorded.get(bundle.name.slice(0, -SAME_CALLS.length)) },
        context: plain(lambdaContext('sameCalls', randomUUID())),
      };
    };
    results.push(
      ...(await measureColdStarts({
        bundles: order,
        invocation,
        samples: 1,
        env: options.env,
        nodeOptions,
        workDir: options.outdir,
      })),
    );
  }
  return results;
}

const p50Of = (results: ColdStart[]) =>
  percentile(
    results.map((r) => r.totalMs),
    50,
  );
const ratio = (ours: number, floor: number) => `${(ours / floor).toFixed(2)}x`;
/**
 * Issue 36's cold goal: every route function's import + first invocation p50 at most this many
 * times its restated floor (below).
 */
export const COLD_GOAL_RATIO = 1.25;

const isFloor = (result: ColdStart) =>
  result.name === COLD_FLOOR || result.name === LIBRARIES_FLOOR || result.name.endsWith(SAME_CALLS);

/**
 * Per function: its p50, the floors' (one GetItem, the libraries), its own calls made raw (API
 * functions), and its restated floor: the least any function making the same first-invocation
 * calls with the same libraries could take, its own calls made raw plus what the libraries every
 * API function runs cost above the one-GetItem floor (never less than nothing: on a noisy run the
 * libraries floor can sample below the GetItem floor, and no library is free).
 */
export function coldByFunction(all: ColdStart[]) {
  const floorP50 = p50Of(all.filter((r) => r.name === COLD_FLOOR));
  const librariesP50 = p50Of(all.filter((r) => r.name === LIBRARIES_FLOOR));
  const librariesExtra = Math.max(0, librariesP50 - floorP50);
  const ours = byFunction(all.filter((r) => !isFloor(r)));
  return ours.map((f) => {
    const same = all.filter((r) => r.name === `${f.name}${SAME_CALLS}`);
    const sameCallsP50 = same.length ? p50Of(same) : undefined;
    return {
      ...f,
      floorP50,
      librariesP50,
      sameCallsP50,
      sameCallsOutcomes: [...new Set(same.map((r) => r.outcome))],
      restatedP50: sameCallsP50 === undefined ? undefined : sameCallsP50 + librariesExtra,
    };
  });
}

export function coldLines(all: ColdStart[], label: string): string[] {
  const floor = all.filter((r) => r.name === COLD_FLOOR);
  const libraries = all.filter((r) => r.name === LIBRARIES_FLOOR);
  const results = all.filter((r) => !isFloor(r));
  const same = all.filter((r) => r.name.endsWith(SAME_CALLS));
  const totals = results.map((r) => r.totalMs);
  const floorP50 = p50Of(floor);
  const imports = results.map((r) => r.importMs);
  const firsts = results.map((r) => r.firstMs);
  const slowest = byFunction(results)
    .slice(0, 3)
    .map((f) => `${f.name.replace(/^functions\//, '')} ${f.p50.toFixed(0)} ms`);
  const functions = new Set(results.map((r) => r.name)).size;
  return [
    `cold     ${label}: import + first invocation p50 ${percentile(totals, 50).toFixed(1)} ms (import ${percentile(imports, 50).toFixed(1)} ms, first invocation ${percentile(firsts, 50).toFixed(1)} ms), p99 ${percentile(totals, 99).toFixed(1)} ms over ${functions} functions x ${results.length / functions} | slowest p50: ${slowest.join(', ')}`,
    // Ours against the one-GetItem floor: issue 22's measure, kept to compare with earlier rounds.
    `cold     floor (the SDK's document client alone, one GetItem): p50 ${floorP50.toFixed(1)} ms (import ${percentile(
      floor.map((r) => r.importMs),
      50,
    ).toFixed(1)} ms; ${floor.length} samples) | ours p50 ${ratio(percentile(totals, 50), floorP50)} the floor`,
    `cold     libraries floor (the same GetItem, and aws-jwt-verify's token check, a zod/mini parse, a Powertools log line, middy): p50 ${p50Of(libraries).toFixed(1)} ms (import ${percentile(
      libraries.map((r) => r.importMs),
      50,
    ).toFixed(1)} ms; ${libraries.length} samples), +${(p50Of(libraries) - floorP50).toFixed(1)} ms over the floor`,
    ...(same.length
      ? [
          `cold     same-calls floors (each API function's own first-invocation DynamoDB calls, recorded, made with the bare SDK): p50 ${p50Of(same).toFixed(1)} ms (import ${percentile(
            same.map((r) => r.importMs),
            50,
          ).toFixed(1)} ms)`,
        ]
      : []),
  ];
}

/** One line per function: p50, import, its restated floor and its ratio to it, and the ratio to the GetItem floor. */
export const coldFunctionLines = (all: ColdStart[]) =>
  coldByFunction(all).map(
    (f) =>
      `  ${f.name.padEnd(48)} p50 ${f.p50.toFixed(1).padStart(6)} ms  import ${f.importP50.toFixed(1).padStart(6)} ms${
        f.restatedP50 === undefined || f.sameCallsP50 === undefined
          ? ''
          : `  ratio to restated floor ${ratio(f.p50, f.restatedP50).padStart(6)} (${f.restatedP50.toFixed(1)} ms: own calls raw ${f.sameCallsP50.toFixed(1)}${f.sameCallsOutcomes.some((o) => o !== '200') ? ` ${f.sameCallsOutcomes.join(',')}` : ''} + libraries ${(f.restatedP50 - f.sameCallsP50).toFixed(1)})`
      }  ${ratio(f.p50, f.floorP50).padStart(6)} GetItem floor  ${f.outcomes.join(',')}`,
  );

/**
 * Issue 36's cold goal: every route function within COLD_GOAL_RATIO of its restated floor (its own
 * first-invocation calls made raw, plus the libraries floor's extra over the GetItem floor), and
 * the pooled ratio: the geometric mean of the per-function ratios (each function weighs the same,
 * whatever its floor; the p50s pooled over all samples are printed beside it).
 */
export function coldGoalLines(all: ColdStart[]): string[] {
  const functions = coldByFunction(all).filter((f) => operationsByModule.has(f.name));
  const routes = functions.filter((f): f is typeof f & { restatedP50: number } => f.restatedP50 !== undefined);
  // The routes that read no table (no same-calls floor): their cold start is the request chain
  // without the SDK, below the one-GetItem floor; named beside the goal, not in it.
  const tableless = functions.filter((f) => f.restatedP50 === undefined);
  const tablelessNote = tableless.length
    ? ` | ${tableless.length} route functions read no table and are outside it: ${ratio(Math.min(...tableless.map((f) => f.p50)), tableless[0]!.floorP50)}-${ratio(Math.max(...tableless.map((f) => f.p50)), tableless[0]!.floorP50)} the GetItem floor`
    : '';
  if (!routes.length) return [];
  const ratios = routes.map((f) => f.p50 / f.restatedP50);
  const pooled = Math.exp(ratios.reduce((sum, r) => sum + Math.log(r), 0) / ratios.length);
  const within = routes.filter((f) => f.p50 <= COLD_GOAL_RATIO * f.restatedP50).length;
  const worst = [...routes]
    .sort((a, b) => b.p50 / b.restatedP50 - a.p50 / a.restatedP50)
    .slice(0, 5)
    .map((f) => `${f.name.replace(/^functions\//, '')} ${ratio(f.p50, f.restatedP50)}`)
    .join(', ');
  const routeNames = new Set(routes.map((f) => f.name));
  const oursP50 = p50Of(all.filter((r) => routeNames.has(r.name)));
  const sameP50 = p50Of(
    all.filter((r) => r.name.endsWith(SAME_CALLS) && routeNames.has(r.name.slice(0, -SAME_CALLS.length))),
  );
  const extra = Math.max(0, routes[0]!.librariesP50 - routes[0]!.floorP50);
  return [
    `cold: ${within} of ${routes.length} functions within ${COLD_GOAL_RATIO}x the restated floor; pooled ${(pooled).toFixed(2)}x (goal ${COLD_GOAL_RATIO}) -> ${within === routes.length ? 'met' : 'NOT met'} | pooled is the geometric mean of the per-function ratios; as pooled p50s, ours ${oursP50.toFixed(1)} ms against same calls ${sameP50.toFixed(1)} + libraries ${extra.toFixed(1)} ms: ${ratio(oursP50, sameP50 + extra)} | worst: ${worst}${tablelessNote}`,
  ];
}

/** The environment of a cold-started function: as deployed, against this DynamoDB Local. */
export function coldEnvironment(endpoint: string, table: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    DYNAMODB_ENDPOINT: endpoint,
    TABLE_NAME: table,
    DATA_DIR: process.env.DATA_DIR,
    // As deployed: the token key's public half in the configuration (the key file's, here).
    TOKEN_PUBLIC_KEY: createPublicKey(keyFromFile(String(process.env.DATA_DIR)))
      .export({ format: 'der', type: 'spki' })
      .toString('base64'),
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    // As deployed: the stage sets it for every route (the booking embed cannot start without it).
    API_BASE_URL: 'https://bench.invalid',
    // As deployed: one log line per request.
    LOG_LEVEL: 'INFO',
    EVENT_BUS_NAME: 'bench',
    DELIVERIES_QUEUE_URL: 'http://127.0.0.1:9/deliveries',
  };
}

/**
 * A practice for cold starts alone (`npm run bench:cold`) and warm CPU (`npm run bench:warm`): one
 * provider working around the clock, a service, a client, a service with three providers working
 * 09:00-17:00 for the search, 50 appointments on the listed day (a full page; the slots' day part
 * taken), and a free half hour per sample from the day after.
 */
export async function seedColdStartPractice(): Promise<SeededIds> {
  const { createLocalServer, listen } = await import('../../infra/local/http-server');
  const { MedspaClient } = await import('../../lib/client/index');
  const { createPracticeWithAdmin } = await import('../../lib/use-cases/practice');
  const { issueToken } = await import('../../lib/auth/issue');
  const { futureWeekday, utc } = await import('../fixtures/dates');
  const server = createLocalServer();
  const port = await listen(server, 0);
  try {
    const { practice, credential } = await createPracticeWithAdmin(
      { name: 'Cold Spa', time_zone: 'America/New_York' },
      new Date(),
    );
    const medspa = new MedspaClient({
      baseUrl: `http://127.0.0.1:${port}`,
      clientId: credential.client_id,
      clientSecret: credential.client_secret,
    });
    const hours = Object.fromEntries(
      ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [{ start: '00:00', end: '24:00' }]]),
    );
    const providerId = (
      await medspa.api.createProvider({ body: { first_name: 'Cold', last_name: 'Start', working_hours: hours } })
    ).data.id;
    const serviceId = (
      await medspa.api.createService({
        body: { name: 'Facial', category: 'skin', price_cents: 9000, duration_minutes: 30, provider_ids: [providerId] },
      })
    ).data.id;
    const clientId = (await medspa.api.createClient({ body: { first_name: 'Cold', last_name: 'Client' } })).data.id;
    await medspa.api.updatePractice({ body: { online_booking: { enabled: true } } });
    const publishableKey = (
      await medspa.api.createPublishableKey({ body: { name: 'Bench', allowed_origins: ['https://spa.example'] } })
    ).data.key;
    const nineToFive = Object.fromEntries(
      ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [{ start: '09:00', end: '17:00' }]]),
    );
    const searchProviders: string[] = [];
    for (let i = 0; i < 3; i += 1)
      searchProviders.push(
        (
          await medspa.api.createProvider({
            body: { first_name: 'Search', last_name: `P${i}`, working_hours: nineToFive },
          })
        ).data.id,
      );
    const searchServiceId = (
      await medspa.api.createService({
        body: {
          name: 'Peel',
          category: 'skin',
          price_cents: 12000,
          duration_minutes: 60,
          provider_ids: searchProviders,
        },
      })
    ).data.id;
    const date = futureWeekday('wed', 3);
    const midnight = Date.parse(utc(date, '00:00'));
    // The listed day: 00:00-19:00 of the around-the-clock provider (38 half hours), 4 hours of each searched one.
    const book = (provider_id: string, service_id: string, scheduled_at: string) =>
      medspa.createAppointment(
        { client_id: clientId, service_id, provider_id, scheduled_at },
        { idempotencyKey: false },
      );
    for (let i = 0; i < 38; i += 1)
      await book(providerId, serviceId, new Date(midnight + i * 30 * 60_000).toISOString());
    for (const provider of searchProviders)
      for (const hour of ['09:00', '11:00', '13:00', '15:00']) await book(provider, searchServiceId, utc(date, hour));
    return {
      medspaId: practice.id,
      token: await issueToken({ medspaId: practice.id, clientId: credential.client_id, role: 'admin' }, new Date()),
      providerId,
      serviceId,
      clientId,
      date,
      freeSlot: (n: number) =>
        new Date(midnight + (n % 48) * 30 * 60_000 + (1 + Math.floor(n / 48)) * 86_400_000).toISOString(),
      credential,
      publishableKey,
      searchServiceId,
    };
  } finally {
    server.close();
  }
}
