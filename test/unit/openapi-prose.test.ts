import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { embeddedPart, GUIDE_PROSE, openApiProse, openApiProseSource, PROSE_MODULE } from '../../infra/openapi-prose';
import { ROLES } from '../../lib/auth/roles';
import { MAX_BODY_BYTES } from '../../lib/http/input';

const root = join(import.meta.dirname, '..', '..');

describe("the OpenAPI document's prose", () => {
  it("is generated from docs/api/*.md and docs/guide's marked parts, and up to date (npm run generate)", () => {
    expect(readFileSync(PROSE_MODULE, 'utf8'), 'lib/openapi/prose.ts is stale: run npm run generate').toBe(
      openApiProseSource(),
    );
  });

  it("embeds only what lies between a guide page's openapi markers", () => {
    const page =
      '# Title\n\nFor the guide only, [a link](README.md).\n\n<!-- openapi:begin (note) -->\n- **A**: one\n- **B**: two\n<!-- openapi:end -->\n\nNext: [more](more.md).\n';
    expect(embeddedPart(page, 'page.md')).toBe('- **A**: one\n- **B**: two');
    expect(() => embeddedPart('# No markers\n', 'page.md')).toThrow(/openapi:begin/);
    expect(() => embeddedPart(`${page}\n<!-- openapi:begin -->\n`, 'page.md')).toThrow(/openapi:begin/);
  });

  it('has no relative Markdown link in what the document embeds (it has no docs folder to resolve them against)', () => {
    for (const [name, text] of Object.entries(openApiProse())) {
      const relative = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
        .map((m) => m[1])
        .filter((target) => !/^(https?:|mailto:|#)/.test(target));
      expect(relative, `PROSE.${name}`).toEqual([]);
    }
  });

  it('docs/guide/conventions.md states the body limit and the roles the code has', () => {
    const conventions = embeddedPart(
      readFileSync(join(root, GUIDE_PROSE.conventions), 'utf8'),
      GUIDE_PROSE.conventions,
    );
    expect(conventions).toContain(`bodies over ${MAX_BODY_BYTES / 1024} KiB are 413`);
    // The line opens with the list of roles, up to its first full stop.
    const roles = /^- \*\*Roles\*\*: ([^.]*)\./m.exec(conventions)?.[1] ?? '';
    expect([...roles.matchAll(/`(\w+)`/g)].map((m) => m[1]).sort()).toEqual([...ROLES].sort());
  });
});
