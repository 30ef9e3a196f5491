import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every relative Markdown link of the repository's docs resolves: the file it names exists, and
 * its `#anchor` is a heading of that file (GitHub's slugs). The docs have two front doors and
 * many pages since issue 35; a page moved or a heading renamed must not leave a dead link behind.
 */
const root = join(import.meta.dirname, '..', '..');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? markdownFiles(path) : name.endsWith('.md') ? [path] : [];
  });
}
const FILES = ['README.md', 'CONTRIBUTING.md', 'lib/client/README.md']
  .map((file) => join(root, file))
  .concat(markdownFiles(join(root, 'docs')));

/** The text outside fenced code blocks (a link or heading inside one is code, not Markdown). */
const prose = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '');

/** GitHub's heading anchors: the rendered text lower-cased, punctuation dropped, spaces as hyphens; repeats get -1, -2... */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, text] of prose(markdown).matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const rendered = text
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/[`*_]{1,2}(?=\S)|(?<=\S)[`*_]{1,2}/g, (m) => (m.includes('_') ? m : ''));
    const slug = rendered
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

function linksOf(markdown: string): string[] {
  return [...prose(markdown).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?: "[^"]*")?\)/g)].map((m) => m[1]);
}

describe("the docs: relative links, and the README's length", () => {
  it('finds the docs to check', () => {
    expect(FILES.map((file) => relative(root, file))).toEqual(
      expect.arrayContaining(['README.md', 'CONTRIBUTING.md', 'docs/architecture.md', 'docs/guide/choices.md']),
    );
  });

  it('keeps the README a front door: at most 300 lines (the rest lives in docs/ and CONTRIBUTING.md)', () => {
    expect(readFileSync(join(root, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(300);
  });

  it('slugs headings as GitHub does', () => {
    expect(
      anchorsOf(
        '# Local vs AWS\n## More practices and credentials: `npm run -s admin`\n## The edge: CloudFront and AWS WAF (AWS only)\n## A\n## A\n```\n# not a heading\n```\n',
      ),
    ).toEqual(
      new Set([
        'local-vs-aws',
        'more-practices-and-credentials-npm-run--s-admin',
        'the-edge-cloudfront-and-aws-waf-aws-only',
        'a',
        'a-1',
      ]),
    );
  });

  for (const file of FILES) {
    it(`${relative(root, file)}: every relative link resolves`, () => {
      const markdown = readFileSync(file, 'utf8');
      const dead: string[] = [];
      for (const link of linksOf(markdown)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto: ...
        const [path, anchor] = link.split('#', 2) as [string, string | undefined];
        const target = path === '' ? file : join(dirname(file), decodeURIComponent(path));
        const fromRoot = relative(root, target);
        if (!existsSync(target)) {
          dead.push(`${link}: no ${fromRoot}`);
          continue;
        }
        if (anchor && target.endsWith('.md') && !anchorsOf(readFileSync(target, 'utf8')).has(anchor))
          dead.push(`${link}: no heading #${anchor} in ${fromRoot}`);
      }
      expect(dead).toEqual([]);
    });
  }
});
