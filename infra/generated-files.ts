import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { GeneratedFile } from '../lib/http/route';
import { openApiFileText } from '../lib/openapi/file';

type GeneratorName = GeneratedFile['generated'];

/**
 * The generators of route rows' generated `filesBeside` ({ generated: name }), each returning its
 * file's text. They run where the bundles are built (the CDK app, `buildFunctions`) and, for a
 * handler running from source, in its process (lib/http/files-beside.ts). Deterministic: a commit
 * makes the same bytes wherever it is built.
 */
const GENERATORS: Record<GeneratorName, () => string> = {
  openapi: openApiFileText,
};

const made = new Map<GeneratorName, string>();

/** A generated file's text, made once per process (the two OpenAPI functions share one). */
export function generatedFileText(name: GeneratorName): string {
  let text = made.get(name);
  if (text === undefined) {
    text = GENERATORS[name]();
    made.set(name, text);
  }
  return text;
}

/**
 * The generated file on disk, for builds that copy files (the CDK bundling hook's `cp`): under the
 * temp directory, named by its content, so equal text is one file and a build never copies a stale
 * one. Written whole, then renamed into place (builds may run side by side).
 */
export function generatedFilePath(name: GeneratorName): string {
  const text = generatedFileText(name);
  const file = join(
    tmpdir(),
    'medspa-api-generated',
    `${name}-${createHash('sha256').update(text).digest('hex').slice(0, 16)}`,
  );
  if (!existsSync(file)) {
    const dir = dirname(file);
    mkdirSync(dir, { recursive: true });
    writeFileSync(`${file}.${process.pid}`, text);
    renameSync(`${file}.${process.pid}`, file);
    // Older versions (about 1.2 MB each) go once a newer one is made; an hour's grace for a build
    // of another commit copying its own right now.
    for (const other of readdirSync(dir)) {
      const path = join(dir, other);
      if (other.startsWith(`${name}-`) && path !== file && Date.now() - statSync(path).mtimeMs > 3_600_000)
        rmSync(path, { force: true });
    }
  }
  return file;
}
