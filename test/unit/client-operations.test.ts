import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clientOperationsSource } from '../../infra/client-operations';

describe('the typed client operation map', () => {
  it('is generated from the route table and up to date (npm run generate)', () => {
    expect(readFileSync('lib/client/operations.ts', 'utf8'), 'lib/client/operations.ts is stale: run npm run generate').toBe(clientOperationsSource());
  });
});
