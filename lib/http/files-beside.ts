import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GeneratedFile } from './route';

/** Where this module runs from: a bundle (`.mjs`, with its files beside it) or source (`.ts`: tsx, vitest). */
const here = import.meta.url;

/**
 * A generated file of a route row's `filesBeside`, read from beside the bundle: in a bundle,
 * `import.meta.url` is the bundle's own, and both builds wrote the file next to it
 * (infra/constructs/bundling.ts). Where the handler runs from source (the local server, tests)
 * nothing was built, so the same generator the builds use makes the text in this process. It is
 * imported by a computed path esbuild does not follow, and only then: the generator (for the
 * OpenAPI document, zod-openapi and every route) stays out of the bundle, and a bundle whose file
 * is missing fails loudly rather than building anything.
 */
export async function generatedFileBeside(name: string, generator: GeneratedFile['generated']): Promise<string> {
  if (!here.endsWith('.ts')) return readFile(join(dirname(fileURLToPath(here)), name), 'utf8');
  const generators = new URL('../../infra/generated-files.ts', here).href;
  const { generatedFileText } = (await import(generators)) as {
    generatedFileText: (name: GeneratedFile['generated']) => string;
  };
  return generatedFileText(generator);
}
