/** Layer rules, checked in `npm test` (test/unit/layers.test.ts) and by `npx depcruise lib functions infra`. */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycles anywhere.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-is-pure',
      comment: 'lib/domain holds pure rules: no data layer, HTTP, SDK or infrastructure.',
      severity: 'error',
      from: { path: '^lib/domain/' },
      to: {
        path: [
          '^lib/(db|http|routes|use-cases|openapi|events|webhooks|client)/',
          '^infra/',
          '^functions/',
          '@aws-sdk/',
          'aws-cdk-lib',
          'node_modules/@middy/',
        ],
      },
    },
    {
      name: 'db-has-no-http',
      comment:
        "lib/db knows records and keys, never HTTP, routes, the public schemas or the API's error codes (its failures are its own: lib/db/failure.ts).",
      severity: 'error',
      from: { path: '^lib/db/' },
      to: {
        path: [
          '^lib/(http|routes|schemas|openapi|use-cases)/',
          '^lib/errors\\.ts$',
          '^functions/',
          'node_modules/@middy/',
        ],
        pathNot: '^lib/schemas/zod\\.ts$',
      },
    },
    {
      name: 'only-db-touches-items',
      comment:
        'Only lib/db builds keys and handles raw items: the key builders, the item reads and the document client stay inside it; everything else gets records through repositories (each item decoded by its codec). infra may name partitions (IAM grants its functions by their key patterns).',
      severity: 'error',
      from: {
        path: '^(lib|functions|infra)/',
        pathNot: ['^lib/db/', '^infra/constructs/app-function\\.ts$', '^infra/local/aws/iam\\.ts$'],
      },
      to: { path: ['^lib/db/(keys|key-reads|conditions)\\.ts$', 'node_modules/@aws-sdk/lib-dynamodb/'] },
    },
    {
      name: 'simulator-stays-local',
      comment:
        "The IAM simulator (AGPL) is the local runtime's: only infra/local/aws may import it, so no Lambda bundle carries it.",
      severity: 'error',
      from: { pathNot: '^infra/local/aws/' },
      to: { path: '@cloud-copilot/' },
    },
    {
      name: 'shipped-code-has-no-dev-dependencies',
      comment:
        'What Lambda bundles carry (lib, functions) imports runtime dependencies only; dev dependencies (luxon, the test oracle; the simulator; generators) stay in tests and tools.',
      severity: 'error',
      from: { path: '^(lib|functions)/' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'client-carries-no-server',
      comment:
        "lib/client runs in browsers and integrators' code: only type-only imports may reach server modules; its one library is openapi-fetch (bundled into the package).",
      severity: 'error',
      from: { path: '^lib/client/' },
      to: { pathNot: ['^lib/client/', 'node_modules/openapi-fetch/'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'booking-page-is-self-contained',
      comment:
        "The booking page's browser code is bundled alone under a size budget: it may read the API's types (lib/client/schema.ts) but imports no code from outside its folder.",
      severity: 'error',
      from: { path: '^lib/booking-page/browser/' },
      to: { pathNot: '^lib/booking-page/browser/', dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
