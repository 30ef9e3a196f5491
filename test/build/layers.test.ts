import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cruise } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

const rules = createRequire(import.meta.url)('../../.dependency-cruiser.cjs');

async function violations(paths: string[], baseDir: string) {
  const result = await cruise(paths, {
    validate: true,
    ruleSet: { forbidden: rules.forbidden },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    baseDir,
  });
  const output = typeof result.output === 'string' ? JSON.parse(result.output) : result.output;
  return output.summary.violations.map(
    (v: { rule: { name: string }; from: string; to: string }) => `${v.rule.name}: ${v.from} -> ${v.to}`,
  );
}

describe('layer rules (dependency-cruiser)', () => {
  it('the code base keeps them: no cycles, pure domain, no HTTP in the data layer, no server code in the client', async () => {
    expect(await violations(['lib', 'functions', 'infra'], process.cwd())).toEqual([]);
  }, 120_000);

  it('catches a cycle and each forbidden import', async () => {
    const root = mkdtempSync(join(tmpdir(), 'layers-'));
    const file = (path: string, text: string) => {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    file('lib/domain/rule.ts', "import { read } from '../db/repo';\nexport const rule = () => read();\n");
    file('lib/db/repo.ts', "import { shape } from '../http/shape';\nexport const read = () => shape();\n");
    file('lib/http/shape.ts', "import { rule } from '../domain/rule';\nexport const shape = (): unknown => rule;\n");
    file(
      'lib/client/index.ts',
      "import { read } from '../db/repo';\nimport type { Shape } from '../http/types';\nexport const client = (s?: Shape) => [read, s];\n",
    );
    file('lib/http/types.ts', 'export type Shape = { a: 1 };\n');
    file(
      'lib/booking-page/browser/api.ts',
      "import { client } from '../../client/index';\nimport type { Shape } from '../../http/types';\nexport const api = (s?: Shape) => [client, s];\n",
    );
    file('lib/db/keys.ts', 'export const key = (id: string) => ({ pk: id, sk: id });\n');
    file('lib/db/repo-reads.ts', "import { key } from './keys';\nexport const read = (id: string) => key(id);\n");
    file(
      'lib/use-cases/reads.ts',
      "import { key } from '../db/keys';\nimport { read } from '../db/repo-reads';\nexport const both = (id: string) => [key(id), read(id)];\n",
    );
    const found = await violations(['lib'], root);
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^domain-is-pure: lib\/domain\/rule.ts -> lib\/db\/repo.ts/),
        expect.stringMatching(/^db-has-no-http: lib\/db\/repo.ts -> lib\/http\/shape.ts/),
        expect.stringMatching(/^client-carries-no-server: lib\/client\/index.ts -> lib\/db\/repo.ts/),
        expect.stringMatching(
          /^booking-page-is-self-contained: lib\/booking-page\/browser\/api.ts -> lib\/client\/index.ts/,
        ),
        expect.stringMatching(/^no-circular: /),
        expect.stringMatching(/^only-db-touches-items: lib\/use-cases\/reads.ts -> lib\/db\/keys.ts/),
      ]),
    );
    // Inside lib/db, and through a repository, keys are fine.
    expect(
      found.some(
        (line: string) =>
          line.includes('lib/db/repo-reads.ts -> lib/db/keys.ts') ||
          line.includes('lib/use-cases/reads.ts -> lib/db/repo-reads.ts'),
      ),
    ).toBe(false);
    // A type-only import from the client is allowed.
    expect(found.some((line: string) => line.includes('lib/client/index.ts -> lib/http/types.ts'))).toBe(false);
    expect(found.some((line: string) => line.includes('lib/booking-page/browser/api.ts -> lib/http/types.ts'))).toBe(
      false,
    );
  }, 120_000);
});
