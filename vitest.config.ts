import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/setup.ts'],
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
  },
});
