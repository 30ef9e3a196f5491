/**
 * `npm run bench:warm [operation ...]`: only the warm CPU lines of `npm run bench` (./warm-cpu.ts).
 * Builds the measured functions (default: the goal's five), seeds a practice on a fresh DynamoDB
 * Local, and prints ours against the raw calls per operation. BENCH_WARM_SAMPLES sets the samples
 * per operation (200). BENCH_WARM_PROFILE=<dir>: then a CPU profile of as many more invocations of
 * each handler alone (./warm-profile.ts), summed per invocation by package and by source function.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { benchEnvironment, startBenchTable } from './bench-table';
benchEnvironment('bench_warm');
// Seeding through the local server unthrottled; the handlers get a deployed function's settings.
process.env.RATE_LIMIT_RPS ??= '0';

const { buildAll, seedColdStartPractice } = await import('./functions');
const { WARM_MODULES, measureWarmCpu, warmCpuGoalLine, warmCpuLines } = await import('./warm-cpu');
const { profileWarm } = await import('./warm-profile');

const requested = process.argv.slice(2);
const modules = requested.length
  ? WARM_MODULES.filter((name) => requested.some((want) => name.endsWith(want)))
  : WARM_MODULES;
const samples = Number(process.env.BENCH_WARM_SAMPLES ?? 200);
const profileRoot = process.env.BENCH_WARM_PROFILE;
if (profileRoot) mkdirSync(profileRoot, { recursive: true });
const { bundles } = await buildAll({ modules, sourceMaps: Boolean(profileRoot) });
const dynamo = await startBenchTable();
const ids = await seedColdStartPractice();
const warm = await measureWarmCpu({ bundles, modules, ids, endpoint: dynamo.endpoint, samples });
for (const line of warmCpuLines(warm, samples)) console.log(line);
console.log(warmCpuGoalLine(warm));
if (profileRoot) {
  const dir = mkdtempSync(join(profileRoot, 'run-'));
  const top = (totals: Array<[string, number]>, n: number) =>
    totals
      .slice(0, n)
      .map(([where, ms]) => `${where} ${ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(2)} ms`}`)
      .join(', ');
  for (const bundle of bundles) {
    const profile = await profileWarm({ bundle, ids, endpoint: dynamo.endpoint, samples, dir });
    const total = profile.packages.reduce((sum, [, ms]) => sum + ms, 0);
    console.log(
      `\n${bundle.name} profiled, ${total.toFixed(2)} ms self time per invocation (idle excluded), ${profile.file}`,
    );
    console.log(`  by package: ${top(profile.packages, 16)}`);
    console.log(`  by function: ${top(profile.functions, 25)}`);
  }
}
await dynamo.stop();
process.exit(0);
