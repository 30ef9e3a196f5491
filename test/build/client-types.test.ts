import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
const fixtures = join(root, 'test', 'fixtures', 'client-consumer');

/** `tsc -p` on one fixture config: the diagnostics, empty when it compiles. */
async function typeCheck(config: string): Promise<string> {
  try {
    await run(
      process.execPath,
      [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(fixtures, config)],
      { cwd: root, timeout: 120_000 },
    );
    return '';
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string; message: string };
    return `${failure.stdout ?? ''}${failure.stderr ?? ''}` || failure.message;
  }
}

describe("the typed client type-checks in an integrator's project (contract 8)", () => {
  it('under moduleResolution NodeNext (a Node service): it compiles, and its mistakes are errors', async () => {
    expect(await typeCheck('tsconfig.nodenext.json')).toBe('');
  }, 120_000);

  it('under moduleResolution Bundler (a browser app, DOM types only)', async () => {
    expect(await typeCheck('tsconfig.bundler.json')).toBe('');
  }, 120_000);

  it("its generated types agree with the route table's zod schemas (inputs it allows are taken, outputs fit)", async () => {
    expect(await typeCheck('tsconfig.conformance.json')).toBe('');
  }, 120_000);
});
