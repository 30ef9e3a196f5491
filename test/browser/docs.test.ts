import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../fixtures/chromium';
import { startLocalApi, type LocalApi } from '../fixtures/local-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../lib/openapi/document';

/**
 * GET /docs in a real browser: Debian's chromium (`.ci/run` installs it), driven by
 * playwright-core. The page must render every operation from files this server serves (nothing
 * from elsewhere), and "try it" must call this server.
 */
const ARTIFACTS = join(import.meta.dirname, '..', 'artifacts');

describe('the /docs page in chromium', () => {
  let server: LocalApi | undefined;
  let baseUrl: string;
  let browser: Browser;

  beforeAll(async () => {
    server = await startLocalApi();
    baseUrl = server.url;
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('lists every operation and event, and "try it" on GET /health answers 200 from this server', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    const elsewhere: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page: ${error.message}`));
    page.on('request', (request) => {
      if (!request.url().startsWith(baseUrl) && !request.url().startsWith('data:')) elsewhere.push(request.url());
    });
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
    });

    await page.goto(`${baseUrl}/docs`, { waitUntil: 'load' });
    await page.locator('.opblock').first().waitFor({ timeout: 30_000 });

    const document = buildOpenApiDocument();
    const operationIds = Object.values<Record<string, { operationId: string }>>(document.paths).flatMap((ops) =>
      Object.values(ops).map((op) => op.operationId),
    );
    // Tags start folded (the document is long): open each as a reader would, and it must show
    // every one of its operations.
    const byTag = new Map<string, string[]>();
    for (const ops of Object.values<Record<string, { operationId: string; tags: string[] }>>(document.paths))
      for (const op of Object.values(ops)) byTag.set(op.tags[0], [...(byTag.get(op.tags[0]) ?? []), op.operationId]);
    const rendered: string[] = [];
    for (const [tag, ids] of byTag) {
      const heading = page.locator(`h3.opblock-tag[data-tag="${tag}"]`);
      await heading.click();
      const shown = page.locator(`.opblock-tag-section:has(h3[data-tag="${tag}"]) .opblock-summary-operation-id`);
      await expect.poll(() => shown.allTextContents(), { timeout: 15_000 }).toEqual(expect.arrayContaining(ids));
      rendered.push(...(await shown.allTextContents()));
      await heading.click();
    }
    for (const id of operationIds) expect(rendered, id).toContain(id);
    const events = await page
      .locator('.opblock')
      .evaluateAll((blocks) => blocks.map((block) => block.textContent ?? ''));
    for (const type of Object.keys(document.webhooks))
      expect(
        events.some((text) => text.includes(type)),
        type,
      ).toBe(true);

    // "Try it out" is on by default: open the system tag, then GET /health, and execute it.
    await page.locator('h3.opblock-tag[data-tag="system"]').click();
    const health = page.locator('#operations-system-getHealth');
    await health.locator('.opblock-summary').click();
    await health.locator('button.execute').click();
    const status = health.locator('.live-responses-table tr.response .response-col_status').first();
    await status.waitFor({ timeout: 30_000 });
    expect((await status.textContent())?.trim()).toBe('200');
    expect(
      await health.locator('.live-responses-table tr.response .response-col_description').first().textContent(),
    ).toContain('"status": "ok"');
    expect(await health.locator('.request-url').first().textContent()).toContain(`${baseUrl}/health`);

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'docs.png'), fullPage: false });
    expect(elsewhere).toEqual([]);
    expect(problems).toEqual([]);
  }, 120_000);
});
