/**
 * `npm run client:pack`: lib/client as an installable package. ESM and CommonJS builds (esbuild),
 * type declarations for each (tsc), its package.json and README, packed by `npm pack` into
 * `lib/client/medspa-api-client-<version>.tgz` (or the directory given): what an integrator
 * installs with `npm install <path>`, and what `npm publish` would send.
 *
 * openapi-fetch, its one library, is bundled into each build (its MIT license travels with it),
 * so the package has no dependencies: it installs offline, and the declarations never name
 * openapi-fetch's types (the client's public types are its own).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import ts from 'typescript';

const clientDir = join(import.meta.dirname, '..', 'lib', 'client');

/** One module system's build: code and declarations side by side, with the `type` that says which. */
async function buildFlavour(packageDir: string, format: 'esm' | 'cjs'): Promise<void> {
  const outDir = join(packageDir, 'dist', format);
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: [join(clientDir, 'index.ts')],
    outfile: join(outDir, 'index.js'),
    bundle: true,
    format,
    platform: 'neutral',
    target: 'es2022',
    logLevel: 'silent',
  });
  writeFileSync(
    join(outDir, 'package.json'),
    `${JSON.stringify({ type: format === 'esm' ? 'module' : 'commonjs' })}\n`,
  );
  const program = ts.createProgram([join(clientDir, 'index.ts')], {
    declaration: true,
    emitDeclarationOnly: true,
    outDir,
    rootDir: clientDir,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
  });
  const { diagnostics } = program.emit();
  if (diagnostics.length > 0)
    throw new Error(
      ts.formatDiagnostics(diagnostics, {
        getCanonicalFileName: (f) => f,
        getCurrentDirectory: () => clientDir,
        getNewLine: () => '\n',
      }),
    );
}

/** Builds and packs the client (in a staging directory, so the source tree gets no build output); returns the .tgz's path. */
export async function packClient(destination = clientDir): Promise<string> {
  const packageDir = mkdtempSync(join(tmpdir(), 'medspa-client-package-'));
  try {
    for (const file of ['package.json', 'README.md']) copyFileSync(join(clientDir, file), join(packageDir, file));
    copyFileSync(
      join(import.meta.dirname, '..', 'node_modules', 'openapi-fetch', 'LICENSE'),
      join(packageDir, 'LICENSE-openapi-fetch'),
    );
    await buildFlavour(packageDir, 'esm');
    await buildFlavour(packageDir, 'cjs');
    mkdirSync(destination, { recursive: true });
    const packed = spawnSync('npm', ['pack', '--json', '--pack-destination', resolve(destination)], {
      cwd: packageDir,
      encoding: 'utf8',
    });
    if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
    const [{ filename }] = JSON.parse(packed.stdout) as Array<{ filename: string }>;
    return join(resolve(destination), filename);
  } finally {
    rmSync(packageDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const version = (JSON.parse(readFileSync(join(clientDir, 'package.json'), 'utf8')) as { version: string }).version;
  packClient(process.argv[2]).then(
    (file) => console.log(`medspa-api-client ${version}: ${file}\ninstall it with: npm install ${file}`),
    (error: Error) => {
      console.error(error.message);
      process.exit(1);
    },
  );
}
