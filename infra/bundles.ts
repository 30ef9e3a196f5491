import { dirname, join, relative } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { handlerModule, type RouteDef } from '../lib/http/route';
import { routes } from '../lib/routes';
import { workers } from '../lib/workers';
import { copyFilesBeside, esbuildOptions } from './constructs/bundling';

/**
 * Every function the stacks deploy: one per route table row (functions/<group>/<operation>) and
 * one per workers table row, named by module path (e.g. `functions/appointments/createAppointment`).
 */
export function functionModules(): string[] {
  const modules = [
    ...Object.entries(routes).map(([operation, route]) => handlerModule(operation, route)),
    ...Object.values(workers).map((worker) => worker.module),
  ];
  return [...new Set(modules)].sort();
}

const filesBesideOf = new Map(
  Object.entries(routes as Record<string, RouteDef>).map(([operation, route]) => [
    handlerModule(operation, route),
    route.filesBeside,
  ]),
);

export interface FunctionBundle {
  /** Module path, e.g. `functions/system/getHealth`. */
  name: string;
  /** The bundle file (`<outdir>/<name>.mjs`). */
  file: string;
  /** Minified bundle size, the AWS SDK included. */
  bytes: number;
  /** Bytes of the bundle per source file (node_modules packages and our modules). */
  inputs: Record<string, number>;
}

/**
 * Builds every function with the construct's esbuild settings in ONE esbuild call (the modules
 * they share are parsed once), into `outdir`. What the budget test checks and the bench measures.
 */
export async function buildFunctions(
  projectRoot: string,
  outdir: string,
  modules = functionModules(),
  overrides: { sourceMaps?: boolean } = {},
): Promise<{ bundles: FunctionBundle[]; metafile: Metafile }> {
  const entryPoints = Object.fromEntries(modules.map((name) => [name, join(projectRoot, `${name}.ts`)]));
  const { metafile } = await build(esbuildOptions(projectRoot, entryPoints, outdir, overrides));
  const bundles = modules.map((name) => {
    // esbuild names outputs relative to its working directory.
    const output = metafile.outputs[`${relative(projectRoot, outdir)}/${name}.mjs`];
    if (!output) throw new Error(`esbuild wrote no bundle for ${name}`);
    const inputs = Object.fromEntries(
      Object.entries(output.inputs).map(([path, { bytesInOutput }]) => [path, bytesInOutput]),
    );
    const file = join(outdir, `${name}.mjs`);
    copyFilesBeside(projectRoot, filesBesideOf.get(name), dirname(file));
    return { name, file, bytes: output.bytes, inputs };
  });
  return { bundles, metafile };
}

/** Bytes of a bundle grouped by npm package (scoped names whole) or, for our code, top folder. */
export function bytesByPackage(bundle: FunctionBundle): Array<[string, number]> {
  const groups = new Map<string, number>();
  for (const [path, bytes] of Object.entries(bundle.inputs)) {
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1] ?? path.split('/').slice(0, 2).join('/');
    groups.set(pkg, (groups.get(pkg) ?? 0) + bytes);
  }
  return [...groups].sort((a, b) => b[1] - a[1]);
}
