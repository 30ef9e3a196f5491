import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openApiProseSource, PROSE_MODULE } from '../../infra/openapi-prose';

describe('the OpenAPI document\'s prose', () => {
  it('is generated from docs/api/*.md and up to date (npm run generate)', () => {
    expect(readFileSync(PROSE_MODULE, 'utf8'), 'lib/openapi/prose.ts is stale: run npm run generate').toBe(openApiProseSource());
  });
});
