import { copyFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { BuildOptions } from 'esbuild';
import { OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { FilesBeside } from '../../lib/http/route';
import { generatedFilePath } from '../generated-files';

/**
 * THE esbuild settings of every function bundle. The CDK construct (./app-function.ts) bundles
 * with them through NodejsFunction, and the bundle budget test and `npm run bench` build with the
 * same object through esbuild's API, so what is measured is what deploys.
 */

/** ESM bundles: CommonJS dependencies that call `require` get one. */
export const ESM_REQUIRE_BANNER =
  "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

/** Lambda's runtime, which the bundles target. */
export const NODE_TARGET = 'node22';

/**
 * Source maps: off, decided on measurement. With a map beside each bundle and
 * `--enable-source-maps`, Node reads and parses the map (about 650 KB of JSON) while it loads the
 * bundle: cold import + first invocation p50 was 448 ms against 385 ms without (8 functions x 8
 * interleaved samples on this project's shared 2-core machine, load ~8; `npm run bench` with
 * BENCH_SOURCE_MAPS=compare repeats it). The price: stack traces in logs name minified
 * functions. esbuild's output is deterministic, so a map for a deployed commit can be rebuilt
 * (`sourcemap: true` with these settings) when a trace needs reading; and every error we log
 * carries its operation, request id and code.
 */
export const SOURCE_MAPS = false;

/** The environment a function needs for what SOURCE_MAPS decides. */
export const sourceMapEnvironment = (): Record<string, string> =>
  SOURCE_MAPS ? { NODE_OPTIONS: '--enable-source-maps' } : {};

/**
 * Injected in place of the `ReadableStream` and `Blob` globals, whose first read loads Node's web
 * streams (the module says why, and what it answers).
 */
export const WEB_GLOBALS = 'infra/constructs/web-globals.ts';

/**
 * Build-time substitutions, package -> module (paths relative to the project root). Each one is
 * a module that deploys instead of a dependency's own, so each has its reason and its test.
 */
export const BUNDLE_ALIASES: Readonly<Record<string, string>> = {
  // Lambda's credentials come from the environment: the SDK's whole default chain is not needed.
  '@aws-sdk/credential-provider-node': 'infra/constructs/lambda-credentials.ts',
  // The DynamoDB client's endpoint-discovery cache needs an LRU, not mnemonist's 5 KB of one.
  'mnemonist/lru-cache': 'infra/constructs/lru-cache.ts',
  // @middy/core imports Node's web streams for streamed responses only (./web-globals.ts).
  'node:stream/web': WEB_GLOBALS,
};

const aliases = (projectRoot: string) =>
  Object.fromEntries(Object.entries(BUNDLE_ALIASES).map(([from, to]) => [from, join(projectRoot, to)]));

/**
 * A route row's `filesBeside` as absolute source files: package paths resolved from the project,
 * generated files made (in this process, once) and written to disk (infra/generated-files.ts).
 */
export function filesBesideSources(
  projectRoot: string,
  files: FilesBeside = {},
): Array<[name: string, source: string]> {
  const resolve = createRequire(join(projectRoot, 'package.json')).resolve;
  return Object.entries(files).map(([name, from]) => [
    name,
    typeof from === 'string' ? resolve(from) : generatedFilePath(from.generated),
  ]);
}

/** Copies a function's `filesBeside` into the directory of its bundle (esbuild API builds). */
export function copyFilesBeside(projectRoot: string, files: FilesBeside | undefined, bundleDir: string): void {
  for (const [name, source] of filesBesideSources(projectRoot, files)) copyFileSync(source, join(bundleDir, name));
}

const quote = (path: string) => `'${path.replaceAll("'", "'\\''")}'`;

/**
 * For NodejsFunction (the CDK construct); `filesBeside` land in the asset next to index.mjs. The
 * hook runs in the CDK app's process when the function is bundled, so a generated file is made
 * only then (not for template tests, which skip bundling).
 */
export function lambdaBundling(projectRoot: string, filesBeside: FilesBeside = {}): BundlingOptions {
  return {
    ...(Object.keys(filesBeside).length
      ? {
          commandHooks: {
            beforeBundling: () => [],
            beforeInstall: () => [],
            afterBundling: (_inputDir: string, outputDir: string) =>
              filesBesideSources(projectRoot, filesBeside).map(
                ([name, source]) => `cp ${quote(source)} ${quote(join(outputDir, name))}`,
              ),
          },
        }
      : {}),
    format: OutputFormat.ESM,
    target: NODE_TARGET,
    mainFields: ['module', 'main'],
    minify: true,
    sourceMap: SOURCE_MAPS,
    ...(SOURCE_MAPS ? { sourcesContent: false } : {}),
    banner: ESM_REQUIRE_BANNER,
    // Bundle everything, the AWS SDK included: the version we test is the version we run.
    externalModules: [],
    inject: [join(projectRoot, WEB_GLOBALS)],
    // One `--alias:<package>=<module>` flag each (esbuild's CLI form).
    esbuildArgs: Object.fromEntries(Object.entries(aliases(projectRoot)).map(([from, to]) => [`--alias:${from}`, to])),
  };
}

/**
 * For esbuild's API: the same settings as `lambdaBundling`, to build many functions in one call
 * (entry name -> file; one `<name>.mjs` each in `outdir`). `sourceMaps` overrides SOURCE_MAPS, for
 * the bench's comparison only.
 */
export function esbuildOptions(
  projectRoot: string,
  entryPoints: Record<string, string>,
  outdir: string,
  overrides: { sourceMaps?: boolean } = {},
): BuildOptions & { metafile: true } {
  const sourceMaps = overrides.sourceMaps ?? SOURCE_MAPS;
  return {
    entryPoints,
    outdir,
    outExtension: { '.js': '.mjs' },
    absWorkingDir: projectRoot,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: NODE_TARGET,
    mainFields: ['module', 'main'],
    minify: true,
    sourcemap: sourceMaps,
    ...(sourceMaps ? { sourcesContent: false } : {}),
    banner: { js: ESM_REQUIRE_BANNER },
    external: [],
    alias: aliases(projectRoot),
    inject: [join(projectRoot, WEB_GLOBALS)],
    metafile: true,
    logLevel: 'warning',
  };
}
