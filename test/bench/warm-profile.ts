/**
 * Where a warm handler's CPU goes (`npm run bench:warm` with BENCH_WARM_PROFILE=<dir>): a bundle
 * built with its source map beside it (read by the summary, not at run time) is warmed, then
 * `samples` invocations run under the inspector's CPU profiler, with their events made before it
 * starts. Self time is summed by package and by source function through the map
 * (./cold-profile.ts), per invocation.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import type { FunctionBundle } from '../../infra/bundles';
import { profileBySource } from './cold-profile';
import type { SeededIds } from './functions';
import { asDeployed, importHandler, invocation, warmEnvironment } from './warm-cpu';

/** Creates book `ids.freeSlot(n)` from here on, past the measured ones. */
const FIRST_PROFILE_SLOT = 5000;

export interface WarmProfile {
  file: string;
  /** Self ms per invocation, largest first. */
  packages: Array<[string, number]>;
  functions: Array<[string, number]>;
}

export async function profileWarm(options: {
  bundle: FunctionBundle;
  ids: SeededIds;
  endpoint: string;
  samples: number;
  dir: string;
  warmup?: number;
}): Promise<WarmProfile> {
  const { bundle, ids, samples } = options;
  const warmup = options.warmup ?? 50;
  const file = join(options.dir, `${bundle.name.replaceAll('/', '_')}.cpuprofile`);
  const session = new Session();
  session.connect();
  try {
    await asDeployed(warmEnvironment(options.endpoint), async () => {
      const handler = await importHandler(bundle);
      for (let i = 0; i < warmup; i += 1) await handler(...invocation(bundle, ids, FIRST_PROFILE_SLOT + i));
      const prepared = Array.from({ length: samples }, (_, i) =>
        invocation(bundle, ids, FIRST_PROFILE_SLOT + warmup + i),
      );
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 100 });
      await session.post('Profiler.start');
      for (const [event, context] of prepared) await handler(event, context);
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
    });
  } finally {
    session.disconnect();
  }
  // Idle is waiting on DynamoDB; `native dispatch` is the profiler's own stop (serializing the profile).
  const perInvocation = (totals: Array<[string, number]>) =>
    totals
      .filter(([where]) => where !== '(idle)' && where !== 'native dispatch')
      .map(([where, ms]): [string, number] => [where, ms / samples]);
  return {
    file,
    packages: perInvocation(profileBySource(file, bundle.file)),
    functions: perInvocation(profileBySource(file, bundle.file, 'function')),
  };
}
