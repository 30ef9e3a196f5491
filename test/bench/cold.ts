/**
 * `npm run bench:cold [module ...]`: only the cold-start lines of `npm run bench`, for iterating
 * on start-up work. Builds the named functions (default: all), seeds a practice on a fresh
 * DynamoDB Local, and prints the cold lines plus each function's p50 (import / first invocation)
 * against its restated floor: its own DynamoDB calls made raw (./ddb-recorder.ts) plus the
 * libraries floor's extra over the one-GetItem floor (./functions.ts, `coldGoalLines`).
 * BENCH_COLD_SAMPLES sets the samples per function (5).
 */
import { mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { benchEnvironment, startBenchTable } from './bench-table';
benchEnvironment('bench_cold');

const { tableName } = await import('../../lib/db/client');
const { functionModules } = await import('../../infra/bundles');
const {
  buildAll,
  coldFunctionLines,
  coldGoalLines,
  seedColdStartPractice,
  coldEnvironment,
  coldLines,
  coldStarts,
  SAME_CALLS,
} = await import('./functions');
const { profileBySource } = await import('./cold-profile');

const requested = process.argv.slice(2);
const modules = requested.length
  ? functionModules().filter((name) => requested.some((want) => name.endsWith(want)))
  : functionModules();
// BENCH_COLD_PROFILE=<dir>: a CPU profile of every cold start there (node --cpu-prof), summed by
// source through maps built beside the bundles (not read at run time: no --enable-source-maps).
// A fresh directory per run, so its profiles are this run's alone.
const profileRoot = process.env.BENCH_COLD_PROFILE;
if (profileRoot) mkdirSync(profileRoot, { recursive: true });
const profileDir = profileRoot ? mkdtempSync(join(profileRoot, 'run-')) : undefined;
const { bundles, floor, callsFloor, librariesFloor, outdir } = await buildAll({
  modules,
  sourceMaps: Boolean(profileDir),
});
const dynamo = await startBenchTable();
const ids = await seedColdStartPractice();
const results = await coldStarts({
  bundles,
  floor,
  callsFloor,
  librariesFloor,
  outdir,
  ids,
  samples: Number(process.env.BENCH_COLD_SAMPLES ?? 5),
  env: coldEnvironment(dynamo.endpoint, tableName()),
  sourceMaps: false,
  extraNodeOptions: profileDir ? ['--cpu-prof', '--cpu-prof-interval', '100', '--cpu-prof-dir', profileDir] : [],
});
for (const line of coldLines(results, 'as deployed (no source maps)')) console.log(line);
for (const line of coldFunctionLines(results)) console.log(line);
for (const line of coldGoalLines(results)) console.log(line);
if (profileDir) {
  // Profiles are named by start time and process id: in start order, the order of the results.
  console.log(`\nprofiles: ${profileDir}`);
  const profiles = readdirSync(profileDir)
    .filter((name) => name.endsWith('.cpuprofile'))
    .sort();
  const bundleOf = new Map([floor, librariesFloor, ...bundles].map((bundle) => [bundle.name, bundle.file]));
  const fileOf = (name: string) => (name.endsWith(SAME_CALLS) ? callsFloor.file : bundleOf.get(name)!);
  results.forEach((result, i) => {
    const top = profileBySource(join(profileDir, profiles[i]!), fileOf(result.name)).slice(0, 14);
    console.log(
      `\n${result.name} ${result.totalMs.toFixed(1)} ms (profiled, so slower): ${top.map(([where, ms]) => `${where} ${ms.toFixed(1)}`).join(', ')}`,
    );
  });
}
await dynamo.stop();
process.exit(0);
