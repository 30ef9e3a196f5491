import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const LIMIT_BYTES = 30 * 1024;

describe('the typed client in a browser bundle', () => {
  it(`is at most ${LIMIT_BYTES / 1024} KB minified and carries no server code`, async () => {
    const result = await build({
      entryPoints: [join(root, 'lib/client/index.ts')],
      bundle: true,
      minify: true,
      platform: 'browser',
      format: 'esm',
      target: 'es2022',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const size = result.outputFiles[0].contents.byteLength;
    expect(size, `client bundle is ${size} bytes`).toBeLessThanOrEqual(LIMIT_BYTES);
    // node_modules may be a link to another checkout's: its files are named from their package on.
    const inputs = Object.keys(result.metafile.inputs).map((input) =>
      input.replace(/^.*node_modules\//, 'node_modules/'),
    );
    expect(inputs.sort()).toEqual([
      'lib/client/errors.ts',
      'lib/client/index.ts',
      'lib/client/operations.ts',
      'lib/client/transport.ts',
      'node_modules/openapi-fetch/dist/index.mjs',
    ]);
  });
});
