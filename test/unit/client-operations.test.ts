import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clientOperationsSource, clientTypesSource } from '../../infra/client-operations';

describe("the typed client's generated modules", () => {
  it('is generated from the route table and up to date (npm run generate)', () => {
    expect(
      readFileSync('lib/client/operations.ts', 'utf8'),
      'lib/client/operations.ts is stale: run npm run generate',
    ).toBe(clientOperationsSource());
  });

  it('and its types are generated from the same schemas and up to date (npm run generate)', async () => {
    expect(readFileSync('lib/client/schema.ts', 'utf8'), 'lib/client/schema.ts is stale: run npm run generate').toBe(
      await clientTypesSource(),
    );
  });
});
