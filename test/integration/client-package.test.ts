import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packClient } from '../../infra/client-pack';
import { seedDemoPracticeData } from '../../infra/local/demo-data';
import { createLocalServer, listen } from '../../infra/local/http-server';
import { makePractice, type TestPractice } from '../fixtures/api';

/**
 * The client as an integrator gets it: `npm run client:pack`'s .tgz installed into a default
 * `npm init -y` project, used with `require` and with `import` (top-level await), and its types
 * checked under NodeNext from both module systems. Nothing else is installed.
 */
const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'medspa-client-package-test-'));
let tarball: string;
let server: Server;
let baseUrl: string;
let practice: TestPractice;

/**
 * The project the tarball is installed into once (an offline npm install takes seconds); each test
 * works in a folder of its own inside it, which resolves the package and its module system from
 * the project as any of its source folders would.
 */
let project: string;
function freshProject(name: string): string {
  const dir = join(project, name);
  mkdirSync(dir);
  return dir;
}

/** The typed client's example, read from its page of the integrator's guide (never copied here). */
const CLIENT_GUIDE = 'docs/guide/client.md';
function guideExample(): string {
  const page = readFileSync(join(root, CLIENT_GUIDE), 'utf8');
  const example = /```js\n([\s\S]*?)```/.exec(page.slice(page.indexOf('```js\nimport')));
  if (!example)
    throw new Error(
      `${CLIENT_GUIDE} has no \`\`\`js block importing the client: the example moved, so move this pointer too`,
    );
  return example[1];
}

const credentials = () => ({
  BASE: baseUrl,
  MEDSPA_CLIENT_ID: practice.clientId,
  MEDSPA_CLIENT_SECRET: practice.clientSecret,
});

beforeAll(async () => {
  tarball = await packClient(work);
  project = join(work, 'project');
  mkdirSync(project);
  await run('npm', ['init', '-y'], { cwd: project });
  await run('npm', ['install', tarball, '--offline', '--no-audit', '--no-fund'], { cwd: project });
  server = createLocalServer();
  baseUrl = `http://127.0.0.1:${await listen(server, 0)}`;
  practice = await makePractice({ name: 'Package Spa' });
}, 120_000);

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(work, { recursive: true, force: true });
});

describe('the typed client as a package', () => {
  it('works with require in a default CommonJS project', async () => {
    const dir = freshProject('cjs');
    writeFileSync(
      join(dir, 'index.js'),
      `const { MedspaClient, MedspaApiError } = require('medspa-api-client');
const medspa = new MedspaClient({ baseUrl: process.env.BASE, clientId: process.env.MEDSPA_CLIENT_ID, clientSecret: process.env.MEDSPA_CLIENT_SECRET });
medspa.api.getPractice().then(async ({ data }) => {
  const missing = await medspa.getAppointment('no-such-id').catch((error) => error instanceof MedspaApiError && error.code);
  console.log(JSON.stringify({ name: data.name, missing }));
});
`,
    );
    const { stdout } = await run('node', ['index.js'], { cwd: dir, env: { ...process.env, ...credentials() } });
    expect(JSON.parse(stdout)).toEqual({ name: 'Package Spa', missing: 'APPOINTMENT_NOT_FOUND' });
  }, 60_000);

  it('works with import and top-level await in an ES module', async () => {
    const dir = freshProject('esm');
    writeFileSync(
      join(dir, 'index.mjs'),
      `import { MedspaClient } from 'medspa-api-client';
const medspa = new MedspaClient({ baseUrl: process.env.BASE, clientId: process.env.MEDSPA_CLIENT_ID, clientSecret: process.env.MEDSPA_CLIENT_SECRET });
const { data } = await medspa.api.getPractice();
const services = [];
for await (const service of medspa.paginate('listServices', {})) services.push(service.id);
console.log(JSON.stringify({ name: data.name, services: services.length }));
`,
    );
    const { stdout } = await run('node', ['index.mjs'], { cwd: dir, env: { ...process.env, ...credentials() } });
    expect(JSON.parse(stdout)).toEqual({ name: 'Package Spa', services: 0 });
  }, 60_000);

  it("runs the client guide's example as written, against a demo practice", async () => {
    const demo = await makePractice({ name: 'Demo Spa' });
    await seedDemoPracticeData(demo.medspaId, new Date());
    const dir = freshProject('readme');
    writeFileSync(join(dir, 'book.mjs'), guideExample());
    const env = {
      ...process.env,
      BASE: baseUrl,
      MEDSPA_CLIENT_ID: demo.clientId,
      MEDSPA_CLIENT_SECRET: demo.clientSecret,
    };
    const { stdout } = await run('node', ['book.mjs'], { cwd: dir, env });
    expect(stdout).toMatch(/^booked \S+ with .+, paid \d+ USD$/m);
    expect(stdout).toMatch(/^APPOINTMENT_NOT_FOUND 404 /m);
  }, 120_000);

  it("type-checks the client guide's example as TypeScript under --strict (book.mts, NodeNext)", async () => {
    const dir = freshProject('guide-types');
    writeFileSync(join(dir, 'book.mts'), guideExample());
    // Node's types, as any Node project has them, from this checkout (nothing downloaded).
    const compilerOptions = {
      noEmit: true,
      strict: true,
      module: 'nodenext',
      moduleResolution: 'nodenext',
      target: 'es2022',
      lib: ['es2022', 'dom'],
      types: ['node'],
      typeRoots: [join(root, 'node_modules', '@types')],
    };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['book.mts'] }));
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await run('node', [tsc, '-p', '.', '--strict'], { cwd: dir }).catch(
      (error: { stdout?: string }) => ({ stdout: error.stdout ?? String(error) }),
    );
    expect(result.stdout).toBe('');
  }, 60_000);

  it('carries its types for both module systems (NodeNext, strict)', async () => {
    const dir = freshProject('types');
    const use = (binding: string) => `${binding}
const medspa = new MedspaClient({ baseUrl: 'http://127.0.0.1:3000', clientId: 'id', clientSecret: 'secret' });
export async function first(): Promise<string | undefined> {
  const { data } = await medspa.api.listServices({ query: { limit: 1 } });
  return data[0]?.name;
}
`;
    writeFileSync(join(dir, 'esm.mts'), use(`import { MedspaClient } from 'medspa-api-client';`));
    writeFileSync(
      join(dir, 'cjs-named.cts'),
      use(`import client = require('medspa-api-client');\nconst { MedspaClient } = client;`),
    );
    const compilerOptions = {
      noEmit: true,
      strict: true,
      module: 'nodenext',
      moduleResolution: 'nodenext',
      target: 'es2022',
      lib: ['es2022', 'dom'],
      types: [],
    };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['esm.mts', 'cjs-named.cts'] }));
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await run('node', [tsc, '-p', '.'], { cwd: dir }).catch((error: { stdout?: string }) => ({
      stdout: error.stdout ?? String(error),
    }));
    expect(result.stdout).toBe('');
  }, 60_000);
});
