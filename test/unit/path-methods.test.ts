import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PATH_METHODS_FILE, pathMethodsSource } from '../../infra/path-methods';
import { methodsOfPath } from '../../lib/routes/methods';

describe("the CORS preflight's path methods (infra/path-methods.ts)", () => {
  it('are generated from the route table and up to date (npm run generate)', () => {
    expect(
      readFileSync(PATH_METHODS_FILE, 'utf8'),
      'lib/routes/path-methods.generated.ts is stale: run npm run generate',
    ).toBe(pathMethodsSource());
  });

  it('match request paths by template, in a fixed method order; an unknown path has none', () => {
    expect(methodsOfPath('/v1/appointments/abc')).toEqual(['GET', 'PATCH', 'DELETE']);
    expect(methodsOfPath('/v1/public/practice')).toEqual(['GET']);
    expect(methodsOfPath('/v1/publishable-keys')).toEqual(['GET', 'POST']);
    expect(methodsOfPath('/v1/nothing')).toEqual([]);
  });
});
