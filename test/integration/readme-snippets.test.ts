import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/dynamo';
import { npmStart, stopAll, untilServing, type StartedServer } from '../fixtures/npm-start';

/**
 * A newcomer's first hour, from the docs themselves (their blocks are read from the Markdown,
 * never copied here): `npm start`, the README's curl walkthrough from a token to a paid
 * appointment, the guide's webhook receiver verifying what that walkthrough made happen, and the
 * guide's online booking steps. A docs edit that breaks a snippet breaks this test. (The typed
 * client's example runs, and is type-checked, in client-package.test.ts.)
 */
const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');

/** The nth ```lang block after a heading of a Markdown file of this repository. */
function block(file: string, heading: string, lang: string, nth = 0): string {
  const text = readFileSync(join(root, file), 'utf8');
  const at = text.indexOf(`${heading}\n`);
  if (at < 0) throw new Error(`${file} has no heading "${heading}": the snippet moved, so move this pointer too`);
  const blocks = [...text.slice(at).matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))];
  return blocks[nth][1];
}

const QUICK_START = ['README.md', '### Book a first appointment with curl'] as const;
const WEBHOOKS = ['docs/guide/webhooks.md', '# Receive and verify webhooks'] as const;
const ONLINE_BOOKING = ['docs/guide/online-booking.md', '# Online booking in three steps'] as const;
const HOLD_PAY_CONFIRM = ['docs/guide/hold-pay-confirm.md', '# Hold, pay, confirm'] as const;
const PACKAGES = ['docs/guide/packages.md', '# Sell a package, book against it'] as const;
const CLINICAL = ['docs/guide/clinical.md', '# Chart a treatment, then answer a recall'] as const;
const CONTACT_CONSENT = [
  'docs/guide/contact-consent.md',
  '# Contact consent: prove a client agreed to marketing texts',
] as const;

const walkthrough = block(...QUICK_START, 'bash');
/** Its first lines: the token and the headers every later snippet uses. */
const session = walkthrough.slice(0, walkthrough.indexOf('\n# 1.'));
/** Its step 2: the service and the client the guide's checkout books. */
const serviceAndClient = walkthrough.slice(walkthrough.indexOf('# 2.'), walkthrough.indexOf('# 3.'));

let port: number;
let server: StartedServer;
const bash = (script: string) =>
  run('bash', ['-e', '-o', 'pipefail', '-c', script], {
    cwd: server.home,
    env: { ...process.env, PORT: String(port) },
    timeout: 60_000,
  });

beforeAll(async () => {
  port = await freePort();
  server = npmStart(port);
  await untilServing(port, server);
}, 90_000);

afterAll(stopAll);

describe("the README's and the guide's snippets, as written", () => {
  let receiver: ChildProcess | undefined;
  afterAll(() => receiver?.kill());

  it('from a token to a paid appointment with curl, and its events at a verifying webhook receiver', async () => {
    // Subscribe, as the webhook section says (on a free port instead of 4000).
    const receiverPort = await freePort();
    const subscribe = block(...WEBHOOKS, 'bash').replace('127.0.0.1:4000', `127.0.0.1:${receiverPort}`);
    const { stdout: subscribed } = await bash(`${session}\n${subscribe}`);
    const { secret } = JSON.parse(subscribed) as { id: string; secret: string };
    expect(secret).toMatch(/^whsec_/);

    // The receiver, in a project of its own with standardwebhooks installed: linked from this
    // checkout, as `npm install` would place it (an offline npm install took 17 s of this test).
    const project = join(server.home, 'receiver');
    mkdirSync(join(project, 'node_modules'), { recursive: true });
    symlinkSync(join(root, 'node_modules', 'standardwebhooks'), join(project, 'node_modules', 'standardwebhooks'));
    writeFileSync(join(project, 'receiver.mjs'), block(...WEBHOOKS, 'js'));
    receiver = spawn('node', ['receiver.mjs'], {
      cwd: project,
      env: { ...process.env, MEDSPA_WEBHOOK_SECRET: secret, RECEIVER_PORT: String(receiverPort) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let received = '';
    receiver.stdout!.on('data', (chunk) => (received += chunk));
    receiver.stderr!.on('data', (chunk) => (received += chunk));

    // The walkthrough.
    const { stdout } = await bash(walkthrough);
    const lines = stdout.trim().split('\n');
    expect(Number(lines[0])).toBeGreaterThan(0); // the demo week
    expect(lines.slice(1, 5)).toEqual(['confirmed', 'checked_in', 'in_progress', 'completed']);
    const payment = JSON.parse(lines.slice(5).join('\n')) as { id: string; amount_cents: number; currency: string };
    expect(payment).toMatchObject({ amount_cents: expect.any(Number), currency: 'USD' });

    // Its events arrive signed, and the receiver's verification passes.
    const deadline = Date.now() + 30_000;
    while (
      !(received.includes('appointment.created') && received.includes(`payment.received ${payment.id}`)) &&
      Date.now() < deadline
    ) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(received).toMatch(/^appointment\.created [0-9a-f-]{36}$/m);
    expect(received).toContain(`payment.received ${payment.id}`);
  }, 120_000);

  it('the curl walkthrough, pasted into a plain shell with no server where BASE says, fails loudly and not with status 0', async () => {
    // A plain `bash`: none of the -e and pipefail the other snippets run with, as a reader's shell has none.
    const nowhere = await freePort();
    const failed = await run('bash', ['-c', walkthrough], {
      cwd: server.home,
      env: { ...process.env, PORT: String(nowhere) },
      timeout: 60_000,
    }).then(
      () => null,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(failed, 'the walkthrough exited 0 with no server').not.toBeNull();
    expect(failed!.code).not.toBe(0);
    expect(failed!.stderr).toContain(`curl: (7) Failed to connect to 127.0.0.1 port ${nowhere}`);
  });

  it('hold, pay, confirm: a policy and a deposit, a hold quoting it, the confirm paying it, a late cancel applying it', async () => {
    const { stdout } = await bash(`${session}\n${serviceAndClient}\n${block(...HOLD_PAY_CONFIRM, 'bash')}`);
    const [policy, deposit, held, confirmed, fee] = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(policy).toMatchObject({ late_cancel_minutes: 10080 });
    expect(deposit).toEqual({ type: 'percent', value: 25 });
    expect(held).toMatchObject({ status: 'active', deposit_required_cents: expect.any(Number) });
    expect(held.deposit_required_cents).toBeGreaterThan(0);
    expect(confirmed).toEqual({
      status: 'scheduled',
      deposit_required_cents: held.deposit_required_cents,
      deposit_paid_cents: held.deposit_required_cents,
    });
    expect(fee).toMatchObject({ kind: 'late_cancel', deposit_applied_cents: held.deposit_required_cents });
    expect(fee.due_cents).toBe(Math.max(0, fee.amount_cents - held.deposit_required_cents));
  }, 60_000);

  it('sell a package, book against it: one unit reserved, the ledger says so', async () => {
    const { stdout } = await bash(`${session}\n${serviceAndClient}\n${block(...PACKAGES, 'bash')}`);
    const [booked, balance, kinds] = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(booked).toEqual({ price_cents: 0, on_the_plan: true });
    expect(balance).toEqual({ granted: 6, reserved: 1, used: 0, remaining: 5 });
    expect(kinds).toEqual(['reserve', 'grant']);
  }, 60_000);

  it('chart a treatment, then answer a recall: stock by lot in the record, signed, exposures, the recall', async () => {
    const { stdout } = await bash(`${session}\n${serviceAndClient}\n${block(...CLINICAL, 'bash')}`);
    const [record, lot, signed, exposures, recalled] = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(record).toEqual({ status: 'draft', version: 1 });
    expect(lot).toEqual({ quantity_on_hand: 8 });
    expect(signed).toEqual({ status: 'signed', revision: 1 });
    expect(exposures).toEqual([{ client: expect.any(String), quantity: 2 }]);
    expect(recalled).toEqual({ status: 'recalled' });
  }, 60_000);

  it('contact consent: a grant, the marketing list, a revoke, the state and history', async () => {
    const { stdout } = await bash(`${session}\n${serviceAndClient}\n${block(...CONTACT_CONSENT, 'bash')}`);
    const [granted, listed, consents] = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(granted).toEqual({ status: 'granted', source: 'staff' });
    expect(listed).toEqual([{ id: expect.any(String), phone: expect.anything() }]);
    expect(consents).toEqual({ current: ['revoked'], history: ['revoked', 'granted'] });
  }, 60_000);

  it('online booking in three steps: enabled, a key, the script tag and the page it loads', async () => {
    const { stdout } = await bash(`${session}\n${block(...ONLINE_BOOKING, 'bash')}`);
    const [settings, tag, page] = stdout.trim().split('\n');
    expect(JSON.parse(settings)).toMatchObject({ enabled: true });
    expect(tag).toMatch(/^<script src="http:\/\/127\.0\.0\.1:\d+\/book\.js" data-key="pk_[0-9a-f]+"><\/script>$/);
    const answer = await fetch(page);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-security-policy')).toContain(
      'frame-ancestors https://www.yourspa.example http://localhost:8080',
    );
    expect(await answer.text()).toContain('<script');
  }, 60_000);
});
