import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/**
 * Four projects (docs/testing.md): `npm test` runs them all, `npm run test:unit` the inner loop.
 * - unit: pure code (domain, codecs, schemas, config); no DynamoDB, no IAM model, no child processes.
 * - integration: the API and workers on DynamoDB Local, IAM enforced from the synthesized roles.
 * - e2e: the local server as started by `npm start`, browsers, README snippets, the client package.
 * - build: bundles, CDK synth and template assertions, cold-start module budgets.
 */

/** Files of test/integration that run the local server or a packaged client: e2e, not integration. */
const E2E_FILES = [
  'test/integration/readme-snippets.test.ts',
  'test/integration/client-package.test.ts',
  'test/integration/start-signals.test.ts',
  'test/integration/admin-cli.test.ts',
];

const withDynamo = {
  // One DynamoDB Local and one synthesized model per run, shared by every project that needs them.
  globalSetup: ['test/global-setup.ts'],
  setupFiles: ['test/setup.ts'],
};

const projects: TestProjectInlineConfiguration[] = [
  {
    extends: true,
    test: {
      name: 'unit',
      include: ['test/unit/**/*.test.ts'],
      setupFiles: ['test/setup-unit.ts'],
      // Pure modules: one process and module graph per worker for every file, instead of one per
      // file. Forks, not threads: time-zone tests (lib/domain/time) need the process's own ICU setup.
      isolate: false,
    },
  },
  {
    extends: true,
    test: {
      name: 'integration',
      include: ['test/integration/**/*.test.ts'],
      exclude: E2E_FILES,
      // A worker's files share one module graph (the SDK, the handlers, the IAM model loaded once):
      // test/setup.ts resets config and clients and restores the environment after each file.
      isolate: false,
      ...withDynamo,
    },
  },
  {
    extends: true,
    // One module graph per worker here too (the local server, playwright, the CDK libraries loaded
    // once, not once per file); their servers, browsers and child processes are per file as before.
    test: { name: 'e2e', include: ['test/browser/**/*.test.ts', ...E2E_FILES], isolate: false, ...withDynamo },
  },
  {
    extends: true,
    test: {
      name: 'build',
      include: ['test/build/**/*.test.ts', 'test/infra/**/*.test.ts'],
      isolate: false,
      ...withDynamo,
    },
  },
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Files mostly wait on DynamoDB Local (its own process): two at a time use a 2-core machine
    // better than vitest's default of one worker per core less one.
    maxWorkers: 2,
    env: {
      LOG_LEVEL: 'SILENT',
      POWERTOOLS_LOG_LEVEL: 'SILENT',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      TOKEN_ISSUER: 'medspa-api-test',
      // On, as deployed (every authenticated call takes from its bucket, so its role's grant is
      // exercised), with a bucket no test empties; test/integration/rate-limit.test.ts sets a small one.
      RATE_LIMIT_RPS: '1000',
      RATE_LIMIT_BURST: '1000000',
      RATE_LIMIT_IP_RPS: '1000',
      RATE_LIMIT_IP_BURST: '1000000',
      // A new publishable key's default budgets (the contract's: 10/20 per client IP, 200/400
      // overall): the suite's public calls all come from 127.0.0.1.
      RATE_LIMIT_KEY_IP_RPS: '1000',
      RATE_LIMIT_KEY_IP_BURST: '100000',
      RATE_LIMIT_KEY_RPS: '1000',
      RATE_LIMIT_KEY_BURST: '100000',
    },
    projects,
  },
});
