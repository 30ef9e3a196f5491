import { join } from 'node:path';
import { App, type CfnElement, type Stack } from 'aws-cdk-lib';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks, HIPAASecurityChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { globalIndexInput, TABLE_SHAPE } from '../../lib/db/table';
import { EVENT_RULES } from '../../lib/events/rules';
import { INDEX_PARTITIONS, PARTITIONS } from '../../lib/db/keys';
import {
  methodsOf,
  photoAccessOf,
  readsTable,
  secretsOf,
  tableReadsOf,
  tableWritesOf,
  verifiesWithTokenKey,
  type HttpMethod,
  type RouteDef,
} from '../../lib/http/route';
import { routes } from '../../lib/routes';
import { workers, type WorkerDef } from '../../lib/workers';
import { readStatements, writeStatements } from '../../infra/constructs/app-function';
import { sourceMapEnvironment } from '../../infra/constructs/bundling';
import type { StatefulStack } from '../../infra/stacks/stateful-stack';
import { routeTracing } from '../../infra/stacks/route-group-stack';
import { PROJECT_ROOT, type StatelessStack } from '../../infra/stacks/stateless-stack';
import { apiOptionsFromContext, DEFAULT_API_OPTIONS } from '../../infra/stacks/stage-settings';
import { defineStage, type StageProps } from '../../infra/stage';

const CFN_RESOURCE_LIMIT = 500;
/** "Far below" the limit: room for the route table to double. */
const COMFORTABLE_RESOURCE_COUNT = 150;
/** A synth of the full route table takes seconds, much more on a loaded machine. */
const SYNTH_TIMEOUT_MS = 240_000;
const ROUTES: Record<string, RouteDef> = routes;
const WORKERS = Object.keys(workers);
const WRITE_ACTIONS = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:ConditionCheckItem',
];
/** The stream consumers' event source mappings read the stream with their role. */
const STREAM_ACTIONS = [
  'dynamodb:DescribeStream',
  'dynamodb:GetRecords',
  'dynamodb:GetShardIterator',
  'dynamodb:ListStreams',
];
/** Actions with no resource-level permissions: the only ones allowed on Resource "*". */
const STAR_RESOURCE_ACTIONS = ['xray:PutTraceSegments', 'xray:PutTelemetryRecords', 'dynamodb:ListStreams'];

type Json = Record<string, unknown>;
type Resource = { Type: string; Properties?: Json; DeletionPolicy?: string; UpdateReplacePolicy?: string };
type Resources = Record<string, Resource>;

interface Synthesized {
  app: App;
  stateful: StatefulStack;
  stateless: StatelessStack;
  /** The edge stack, when the stage has one (test/infra/edge.test.ts). */
  edge?: Stack;
  /** Every stack and nested stack of the stage. */
  all: Array<{ name: string; template: Template }>;
  /** The stateless stack and its nested stacks. */
  code: Array<{ name: string; template: Template }>;
}

type SynthProps = StageProps & {
  stage?: string;
  /** `-c` options, as `cdk deploy` takes them. */
  context?: Record<string, string>;
};

/** Template assertions only: context skips esbuild bundling. The stage as infra/stage.ts defines it. */
function synth({ stage = 'dev', context = {}, ...props }: SynthProps = {}): Synthesized {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } });
  const { stateful, stateless, edge } = defineStage(app, stage, props);
  const nested: Stack[] = [...Object.values(stateless.routeGroups), stateless.workers];
  const code = [
    { name: stateless.stackName, template: Template.fromStack(stateless) },
    ...nested.map((s) => ({ name: s.node.path, template: Template.fromStack(s) })),
  ];
  return {
    app,
    stateful,
    stateless,
    edge,
    code,
    all: [{ name: stateful.stackName, template: Template.fromStack(stateful) }, ...code],
  };
}

const resourcesOf = (template: Template): Resources => (template.toJSON().Resources ?? {}) as Resources;
const ofType = (template: Template, type: string) =>
  Object.entries(resourcesOf(template)).filter(([, r]) => r.Type === type);
const allOfType = (templates: Synthesized['all'], type: string) =>
  templates.flatMap(({ template }) => ofType(template, type));
const asArray = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];
const actionsOf = (statement: Json) => asArray(statement.Action as string | string[]);
const statefulTemplate = (s: Synthesized) => s.all[0].template;

/** Every policy statement under a value (IAM policies, key policies, queue policies...). */
function statementsIn(value: unknown, found: Json[] = []): Json[] {
  if (Array.isArray(value)) for (const v of value) statementsIn(v, found);
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'Statement') found.push(...(asArray(inner) as Json[]));
      else statementsIn(inner, found);
    }
  }
  return found;
}

/** `{ Ref: 'RoleXYZ' }` or `{ 'Fn::GetAtt': ['RoleXYZ', 'Arn'] }` -> logical id. */
const logicalIdOf = (ref: unknown): string | undefined => {
  const r = ref as { Ref?: string; 'Fn::GetAtt'?: [string, string] };
  return r?.Ref ?? r?.['Fn::GetAtt']?.[0];
};

/** Per template: role logical id -> the statements of the managed policies attached to it. */
function rolePermissions(template: Template): Map<string, Json[]> {
  const byRole = new Map<string, Json[]>();
  for (const [, policy] of [...ofType(template, 'AWS::IAM::ManagedPolicy'), ...ofType(template, 'AWS::IAM::Policy')]) {
    for (const role of asArray(policy.Properties?.Roles)) {
      const id = logicalIdOf(role)!;
      byRole.set(id, [...(byRole.get(id) ?? []), ...statementsIn(policy.Properties?.PolicyDocument)]);
    }
  }
  for (const [id, role] of ofType(template, 'AWS::IAM::Role')) {
    byRole.set(id, [...(byRole.get(id) ?? []), ...statementsIn(role.Properties?.Policies)]);
  }
  return byRole;
}

/** Every function of the stage with its template, description (`operation: ...`) and permissions. */
function allFunctionsOf(s: Synthesized) {
  return s.code.flatMap(({ template }) => {
    const permissions = rolePermissions(template);
    return ofType(template, 'AWS::Lambda::Function').map(([id, fn]) => ({
      id,
      fn,
      template,
      name: String(fn.Properties?.Description).split(':')[0],
      role: logicalIdOf(fn.Properties?.Role)!,
      statements: permissions.get(logicalIdOf(fn.Properties?.Role)!) ?? [],
      env: (fn.Properties?.Environment as { Variables?: Json } | undefined)?.Variables ?? {},
    }));
  });
}

/** Functions that run at deploy (custom resources), not on a route or a trigger. */
const runsAtDeploy = (f: ReturnType<typeof allFunctionsOf>[number]) =>
  String(f.fn.Properties?.Description).includes('(Custom::');
/** The route and worker functions. */
const functionsOf = (s: Synthesized) => allFunctionsOf(s).filter((f) => !runsAtDeploy(f));

function nagViolations(app: App) {
  return [new AwsSolutionsChecks(), new HIPAASecurityChecks()].flatMap((pack) =>
    pack
      .validateScope(app)
      .violations.map(
        (v) => `${v.severity} ${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`,
      ),
  );
}

describe('stage dev (current routes and workers)', () => {
  let s: Synthesized;
  beforeAll(() => {
    s = synth();
  }, SYNTH_TIMEOUT_MS);

  it('is two stacks: the table, keys, bus and secrets only in the stateful one', () => {
    expect(s.stateful.stackName).toBe('MedspaApi-dev-Stateful');
    expect(s.stateless.stackName).toBe('MedspaApi-dev-Stateless');
    expect(s.stateless.dependencies).toContain(s.stateful);
    const stateful = statefulTemplate(s);
    stateful.resourceCountIs('AWS::DynamoDB::Table', 1);
    stateful.resourceCountIs('AWS::Events::EventBus', 1);
    stateful.resourceCountIs('AWS::SecretsManager::Secret', 2);
    for (const type of [
      'AWS::DynamoDB::Table',
      'AWS::KMS::Key',
      'AWS::Events::EventBus',
      'AWS::SecretsManager::Secret',
    ]) {
      expect(allOfType(s.code, type), type).toHaveLength(0);
    }
    for (const type of ['AWS::Lambda::Function', 'AWS::ApiGatewayV2::Api', 'AWS::SQS::Queue', 'AWS::IAM::Role']) {
      expect(ofType(stateful, type), type).toHaveLength(0);
    }
  });

  it('derives the table from TABLE_SHAPE, with its stream, PITR and a customer-managed key', () => {
    const keyAttributes = [
      ...new Set([
        TABLE_SHAPE.partitionKey,
        TABLE_SHAPE.sortKey,
        ...TABLE_SHAPE.globalIndexes.flatMap((index) => [index.partitionKey, index.sortKey]),
      ]),
    ];
    const stateful = statefulTemplate(s);
    stateful.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: TABLE_SHAPE.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE_SHAPE.sortKey, KeyType: 'RANGE' },
      ],
      AttributeDefinitions: Match.arrayWith(keyAttributes.map((name) => ({ AttributeName: name, AttributeType: 'S' }))),
      // The same indexes, projections included, as the local table's (lib/db/table.ts).
      GlobalSecondaryIndexes: TABLE_SHAPE.globalIndexes.map(globalIndexInput),
      BillingMode: 'PAY_PER_REQUEST',
      StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
      TimeToLiveSpecification: { AttributeName: TABLE_SHAPE.ttlAttribute, Enabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    });
    const [[, table]] = ofType(stateful, 'AWS::DynamoDB::Table');
    const sse = table.Properties?.SSESpecification as Json;
    expect(sse).toMatchObject({ SSEEnabled: true, SSEType: 'KMS' });
    const keyId = logicalIdOf(sse.KMSMasterKeyId)!;
    expect(resourcesOf(stateful)[keyId]).toMatchObject({
      Type: 'AWS::KMS::Key',
      Properties: { EnableKeyRotation: true },
    });
  });

  it('keeps the clinical photos in the stateful stack: one bucket under the data key, all public access blocked, TLS only, versioned, orphaned uploads expiring', () => {
    const stateful = statefulTemplate(s);
    for (const { template } of s.code) expect(ofType(template, 'AWS::S3::Bucket')).toHaveLength(0);
    const [photos] = ofType(stateful, 'AWS::S3::Bucket').filter(([id]) => id.startsWith('DataPhotos'));
    const [id, bucket] = photos;
    const [[, table]] = ofType(stateful, 'AWS::DynamoDB::Table');
    const dataKey = logicalIdOf((table.Properties!.SSESpecification as Json).KMSMasterKeyId);
    expect(bucket.Properties).toMatchObject({
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [
          {
            BucketKeyEnabled: true,
            ServerSideEncryptionByDefault: {
              SSEAlgorithm: 'aws:kms',
              KMSMasterKeyID: { 'Fn::GetAtt': [dataKey, 'Arn'] },
            },
          },
        ],
      },
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
      VersioningConfiguration: { Status: 'Enabled' },
      LoggingConfiguration: { DestinationBucketName: { Ref: expect.stringContaining('PhotoAccessLogs') } },
    });
    const rules = (bucket.Properties!.LifecycleConfiguration as { Rules: Json[] }).Rules;
    expect(rules).toContainEqual({
      Id: 'OrphanedUploads',
      Status: 'Enabled',
      Prefix: 'photos/',
      TagFilters: [{ Key: 'upload', Value: 'pending' }],
      ExpirationInDays: 30,
    });
    expect(rules).toContainEqual(
      expect.objectContaining({ Id: 'DeletedPhotos', NoncurrentVersionExpiration: { NoncurrentDays: 7 } }),
    );
    // TLS only: the bucket policy denies every request without it, on the bucket and its objects.
    const [[, policy]] = ofType(stateful, 'AWS::S3::BucketPolicy').filter(
      ([, p]) => logicalIdOf(p.Properties?.Bucket) === id,
    );
    expect(statementsIn(policy.Properties?.PolicyDocument)).toContainEqual(
      expect.objectContaining({
        Effect: 'Deny',
        Action: 's3:*',
        Principal: { AWS: '*' },
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      }),
    );
  });

  it('lets only the functions whose row touches photos use the bucket: their object actions on the photos prefix, the bucket key through S3', () => {
    const expected: Record<string, string[]> = {
      upload: ['s3:PutObject', 's3:PutObjectTagging'],
      read: ['s3:GetObject', 's3:PutObjectTagging'],
      delete: ['s3:DeleteObject'],
      confirm: ['s3:PutObjectTagging'],
    };
    let touching = 0;
    for (const f of functionsOf(s)) {
      const s3 = f.statements.filter((st) => actionsOf(st).some((a) => a.startsWith('s3:')));
      const worker = (workers as Record<string, WorkerDef>)[f.name];
      const access = f.name in ROUTES ? photoAccessOf(ROUTES[f.name]) : [...(worker?.binds.photos ?? [])];
      if (access.length === 0) {
        expect(s3, f.name).toEqual([]);
        expect(f.env.PHOTOS_BUCKET, f.name).toBeUndefined();
        continue;
      }
      touching += 1;
      expect(f.env.PHOTOS_BUCKET, f.name).toBeDefined();
      const objects = s3.find((st) => st.Sid === 'PhotoObjects')!;
      expect(actionsOf(objects).sort(), f.name).toEqual([...new Set(access.flatMap((a) => expected[a]))].sort());
      expect(JSON.stringify(objects.Resource), f.name).toMatch(/"\/photos\/\*"\]\]\}$/);
      const list = s3.filter((st) => actionsOf(st).includes('s3:ListBucket'));
      expect(list.length, f.name).toBe(access.includes('read') ? 1 : 0);
      const key = f.statements.find((st) => st.Sid === 'PhotoKeyViaS3');
      if (access.includes('read') || access.includes('upload'))
        expect(JSON.stringify(key?.Condition), f.name).toContain('"s3."');
      else expect(key, f.name).toBeUndefined();
    }
    expect(touching).toBe(6);
  });

  it("notifies the photos bucket's uploads to confirmPhotoUploads (S3 -> EventBridge -> the worker), whose role may only confirm or delete them and update photo items", () => {
    const stateful = statefulTemplate(s);
    const [[, bucket]] = ofType(stateful, 'AWS::S3::Bucket').filter(([id]) => id.startsWith('DataPhotos'));
    expect(bucket.Properties?.NotificationConfiguration).toEqual({
      EventBridgeConfiguration: { EventBridgeEnabled: true },
    });
    const workersTemplate = Template.fromStack(s.stateless.workers);
    const worker = functionsOf(s).find((f) => f.name === 'confirmPhotoUploads')!;
    const rules = ofType(workersTemplate, 'AWS::Events::Rule').filter(([, rule]) =>
      JSON.stringify(rule.Properties?.Targets).includes(`"${worker.id}"`),
    );
    expect(rules).toHaveLength(1);
    const [[ruleId, rule]] = rules;
    // The account's default bus (where S3 sends), only created objects of the photos bucket under photos/.
    expect(rule.Properties?.EventBusName).toBeUndefined();
    const pattern = rule.Properties?.EventPattern as Json;
    expect(pattern).toMatchObject({
      source: ['aws.s3'],
      'detail-type': ['Object Created'],
      detail: { object: { key: [{ prefix: 'photos/' }] } },
    });
    expect(JSON.stringify((pattern.detail as Json).bucket)).toContain('-img-');
    const [target] = rule.Properties!.Targets as Json[];
    expect(target.Arn).toEqual({ 'Fn::GetAtt': [worker.id, 'Arn'] });
    expect(target.DeadLetterConfig).toBeDefined();
    workersTemplate.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 'events.amazonaws.com',
      FunctionName: { 'Fn::GetAtt': [worker.id, 'Arn'] },
      SourceArn: { 'Fn::GetAtt': [ruleId, 'Arn'] },
    });
    // Least privilege: the photo items (read, update; their partitions and the key through DynamoDB
    // only: the tests above), tagging and deleting photo objects, its own dead-letter queue; nothing else.
    const actions = worker.statements
      .flatMap(actionsOf)
      .filter((a) => !a.startsWith('logs:') && !a.startsWith('xray:'));
    expect([...new Set(actions)].sort()).toEqual([
      'dynamodb:BatchGetItem',
      'dynamodb:GetItem',
      'dynamodb:Query',
      'dynamodb:UpdateItem',
      'kms:Decrypt',
      'kms:DescribeKey',
      'kms:Encrypt',
      'kms:GenerateDataKey',
      's3:DeleteObject',
      's3:PutObjectTagging',
      'sqs:SendMessage',
    ]);
    const deadLetters = (worker.fn.Properties!.DeadLetterConfig as Json).TargetArn;
    expect(
      worker.statements.filter((st) => actionsOf(st).includes('sqs:SendMessage')).map((st) => st.Resource),
    ).toEqual([deadLetters]);
    expect(workers.confirmPhotoUploads.binds).toEqual({
      writes: { photos: ['update'] },
      reads: ['photos'],
      photos: ['confirm', 'delete'],
    });
  });

  it('is disposable outside prod', () => {
    const [[, table]] = ofType(statefulTemplate(s), 'AWS::DynamoDB::Table');
    expect(table.DeletionPolicy).toBe('Delete');
    expect(table.Properties?.DeletionProtectionEnabled).not.toBe(true);
  });

  it('has an ECC_NIST_P256 SIGN_VERIFY signing key', () => {
    statefulTemplate(s).resourcePropertiesCountIs(
      'AWS::KMS::Key',
      { KeySpec: 'ECC_NIST_P256', KeyUsage: 'SIGN_VERIFY' },
      1,
    );
  });

  it('has one Lambda per route and per worker: Node 22 on arm64, traced (reads pass through), JSON logs without platform lines, env read by the code, own encrypted log group', () => {
    const functions = functionsOf(s);
    expect(functions.map((f) => f.name).sort()).toEqual([...Object.keys(ROUTES), ...WORKERS].sort());
    for (const { fn, env, template, name } of functions) {
      expect(fn.Properties, name).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        // docs/decisions/0023: workers and changes sampled by Lambda, reads (GET) pass through.
        TracingConfig: {
          Mode: name in ROUTES && routeTracing(ROUTES[name]) === 'passThrough' ? 'PassThrough' : 'Active',
        },
        LoggingConfig: expect.objectContaining({
          LogFormat: 'JSON',
          SystemLogLevel: 'WARN',
          ApplicationLogLevel: env.LOG_LEVEL,
        }),
      });
      expect(fn.Properties?.VpcConfig, name).toBeUndefined();
      for (const variable of ['POWERTOOLS_SERVICE_NAME', 'LOG_LEVEL'])
        expect(env[variable], `${name} ${variable}`).toBeDefined();
      // Only functions that read the table are told its name (and granted it).
      expect(env.TABLE_NAME !== undefined, `${name} TABLE_NAME`).toBe(!(name in ROUTES) || readsTable(ROUTES[name]));
      // Source maps are off by measurement (infra/constructs/bundling.ts): no --enable-source-maps either.
      expect(env.NODE_OPTIONS).toBe(sourceMapEnvironment().NODE_OPTIONS);
      const logGroup = resourcesOf(template)[logicalIdOf((fn.Properties!.LoggingConfig as Json).LogGroup)!];
      expect(logGroup?.Properties?.RetentionInDays, name).toBeGreaterThan(0);
      expect(logGroup?.Properties?.KmsKeyId, name).toBeDefined();
    }
    // The hot reads and the token exchange (it writes no record) pass through; a booking is traced.
    for (const name of ['getAppointments', 'searchAvailability', 'searchPublicAvailability', 'createToken'])
      expect(routeTracing(ROUTES[name]!), name).toBe('passThrough');
    expect(routeTracing(ROUTES.createAppointment!)).toBe('active');
    for (const { name, env } of functions.filter((f) => f.name in ROUTES)) {
      expect(env.TOKEN_ISSUER, `${name} TOKEN_ISSUER`).toBeDefined();
      // The stage's own endpoint: GET /book.js names it, never a request's Host.
      expect(JSON.stringify(env.API_BASE_URL), `${name} API_BASE_URL`).toMatch(/HttpApi.*ApiEndpoint|execute-api/);
      expect(env.TOKEN_PUBLIC_KEY !== undefined, `${name} TOKEN_PUBLIC_KEY`).toBe(
        verifiesWithTokenKey(ROUTES[name]) || name === 'createToken',
      );
    }
  });

  it("encrypts every log group with the stateful stack's customer-managed key", () => {
    const logGroups = allOfType(s.code, 'AWS::Logs::LogGroup');
    // Beside the functions': the API's access log and the deploy-time token key reader's.
    expect(logGroups.length).toBe(Object.keys(ROUTES).length + WORKERS.length + 2);
    for (const [id, group] of logGroups) {
      expect(JSON.stringify(group.Properties?.KmsKeyId), id).toMatch(
        /MedspaApi-dev-Stateful:ExportsOutputFnGetAttDataOpsKey/,
      );
    }
  });

  it('has one API route per route and method, keyed METHOD /path (the fallback as $default), each route with one Lambda integration', () => {
    const apiRoutes = allOfType(s.code, 'AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties ?? {});
    const routeKeys = apiRoutes.map((r) => r.RouteKey);
    const expected = Object.values(ROUTES).flatMap((route) =>
      route.fallback ? ['$default'] : methodsOf(route).map((method) => `${method} ${route.path}`),
    );
    expect(expected).toContain('$default');
    expect(routeKeys.sort()).toEqual(expected.sort());
    expect(allOfType(s.code, 'AWS::ApiGatewayV2::Integration')).toHaveLength(Object.keys(ROUTES).length);
    // An HTTP API's GET route does not match HEAD: the booking page's HEAD is a route of its own, to the same function.
    const target = (key: string) => JSON.stringify(apiRoutes.find((r) => r.RouteKey === key)?.Target);
    expect(routeKeys).toContain('HEAD /book');
    expect(target('HEAD /book')).toBe(target('GET /book'));
    const main = s.code[0].template;
    main.resourceCountIs('AWS::ApiGatewayV2::Api', 1);
    main.hasOutput('ApiUrl', {});
  });

  it('throttles the stage by default and logs access without bodies', () => {
    s.code[0].template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 },
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('routeKey') },
    });
  });

  it('grants each function exactly its declared reads and writes, every one narrowed to its partitions', () => {
    const def = (name: string) => (workers as Record<string, WorkerDef>)[name];
    const declared = (name: string) => (name in ROUTES ? tableWritesOf(ROUTES[name]) : def(name).binds.writes);
    const declaredReads = (name: string) => (name in ROUTES ? tableReadsOf(ROUTES[name]) : def(name).binds.reads);
    for (const { name, statements } of functionsOf(s).filter(
      (f) => !(f.name in ROUTES) || readsTable(ROUTES[f.name]),
    )) {
      const dynamo = statements.filter((st) =>
        actionsOf(st).some((a) => a.startsWith('dynamodb:') && !STREAM_ACTIONS.includes(a)),
      );
      const writes = dynamo.filter((st) => actionsOf(st).some((a) => WRITE_ACTIONS.includes(a)));
      const reads = dynamo.filter((st) => !writes.includes(st));
      expect(
        reads.map((st) => [actionsOf(st), JSON.stringify(st.Resource).match(/index\/(\w+)/)?.[1], st.Condition]),
        name,
      ).toEqual(
        readStatements(declaredReads(name)).map(({ index, actions, patterns }) => [
          actions,
          index,
          { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': patterns } },
        ]),
      );
      expect(
        writes.map((st) => [actionsOf(st), st.Condition]),
        name,
      ).toEqual(
        writeStatements(declared(name)).map(([actions, partitions]) => [
          actions,
          { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': partitions.map((p) => PARTITIONS[p]) } },
        ]),
      );
    }
    for (const { name, statements } of functionsOf(s).filter((f) => f.name in ROUTES && !readsTable(ROUTES[f.name]))) {
      expect(
        statements.flatMap(actionsOf).filter((a) => a.startsWith('dynamodb:') || a.startsWith('kms:Decrypt')),
        name,
      ).toEqual([]);
    }
    // Denied calls are audited (API reference, authentication and access) and every authenticated call takes from its rate-limit bucket, GETs included.
    for (const [name, route] of Object.entries(ROUTES).filter(([, r]) => r.auth !== 'public')) {
      expect(tableWritesOf(route), name).toMatchObject({ audit: ['put'], rateLimit: ['update'] });
    }
  });

  it('reads no function the whole table: every read of the table or an index is narrowed to partition families', () => {
    const readActions = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:Scan'];
    const families = new Set([...Object.values(PARTITIONS), ...Object.values(INDEX_PARTITIONS).map((p) => p.pattern)]);
    for (const { name, statements } of allFunctionsOf(s)) {
      for (const st of statements.filter((st) => actionsOf(st).some((a) => readActions.includes(a)))) {
        expect(actionsOf(st), name).not.toContain('dynamodb:Scan');
        const keys = (st.Condition as any)?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'] as string[];
        expect(keys?.length, `${name}: ${JSON.stringify(st)}`).toBeGreaterThan(0);
        for (const key of keys) expect(families.has(key), `${name}: ${key}`).toBe(true);
        // Every read statement has the condition; none reads with a wildcard resource (table/*, index/*).
        expect(JSON.stringify(st.Resource), name).not.toMatch(/\*/);
      }
    }
  });

  it('lets the public booking routes and the webhook worker (which POSTs to customer URLs) read only their own families', () => {
    const readsOf = (name: string) =>
      functionsOf(s)
        .find((f) => f.name === name)!
        .statements.filter((st) => actionsOf(st).some((a) => a === 'dynamodb:GetItem' || a === 'dynamodb:Query'))
        .flatMap((st) => (st.Condition as any)['ForAllValues:StringLike']['dynamodb:LeadingKeys'] as string[])
        .sort();
    const patterns = (...names: Array<keyof typeof PARTITIONS>) => names.map((n) => PARTITIONS[n]).sort();
    const publicRoutes = Object.entries(ROUTES).filter(([, route]) => route.auth === 'publishable');
    expect(publicRoutes.length).toBeGreaterThan(0);
    for (const [name, route] of publicRoutes) {
      expect(route.path, name).toMatch(/^\/v1\/public\//);
      const read = readsOf(name);
      // Never a credential, an audit entry, a webhook, a payment, a report or another index.
      for (const family of [
        'credentials',
        'audit',
        'webhooks',
        'webhookDeliveries',
        'payments',
        'products',
        'consents',
      ] as const)
        expect(read, name).not.toContain(PARTITIONS[family]);
      expect(
        read.every((key) => Object.values(PARTITIONS).includes(key as never)),
        name,
      ).toBe(true);
      expect(read, name).toEqual(expect.arrayContaining(patterns('publishableKeys', 'practice')));
    }
    expect(readsOf('deliverWebhook')).toEqual(patterns(...(workers.deliverWebhook.binds.reads as any)));
    expect(readsOf('deliverWebhook')).toEqual(patterns('webhookDeliveries', 'webhooks'));
  });

  it('shares a role only between functions of a group with the same declared reads, writes and signing', () => {
    const byRole = new Map<string, Set<string>>();
    for (const { name, role, template } of functionsOf(s).filter((f) => f.name in ROUTES)) {
      const key = `${template.toJSON().Description}:${role}`;
      const route = ROUTES[name];
      const grant = `${JSON.stringify(tableWritesOf(route))}:${JSON.stringify(readsTable(route) ? tableReadsOf(route) : [])}:${name === 'createToken'}`;
      byRole.set(key, new Set([...(byRole.get(key) ?? []), grant]));
    }
    for (const [role, grants] of byRole) expect(grants.size, role).toBe(1);
  });

  it('identity policies allow no wildcard actions, and Resource "*" only for actions without resource-level permissions', () => {
    // Deny statements (the queues' TLS-only policies deny sqs:*) only take away.
    const statements = s.all
      .flatMap(({ template }) => statementsIn(template.toJSON().Resources))
      .filter((st) => st.Effect === 'Allow' && !st.Principal);
    expect(statements.length).toBeGreaterThan(0);
    for (const statement of statements) {
      const actions = actionsOf(statement);
      expect(
        actions.filter((a) => a.includes('*')),
        JSON.stringify(actions),
      ).toEqual([]);
      if (asArray(statement.Resource).includes('*')) {
        expect(STAR_RESOURCE_ACTIONS, JSON.stringify(actions)).toEqual(expect.arrayContaining(actions));
      }
    }
  });

  it("gives the token key's public half, read once at deploy, to every function that verifies or issues tokens: only its reader may kms:GetPublicKey, only the token function kms:Sign", () => {
    const functions = functionsOf(s);
    const allowed = (action: string) =>
      allFunctionsOf(s).filter((f) => f.statements.flatMap(actionsOf).includes(action));
    const [reader, ...others] = allowed('kms:GetPublicKey');
    expect(others).toEqual([]);
    expect(String(reader.fn.Properties?.Description)).toMatch(/Custom::TokenPublicKey/);
    expect(allowed('kms:Sign').map((f) => f.name)).toEqual(['createToken']);
    // The custom resource is served by that reader, for the signing key.
    const [[, resource]] = ofType(s.code[0].template, 'Custom::TokenPublicKey');
    expect(resource.Properties?.ServiceToken).toEqual({ 'Fn::GetAtt': [reader.id, 'Arn'] });
    expect(JSON.stringify(resource.Properties?.KeyId)).toContain('TokenSigningKey');
    // It runs again when the reader's code changes, not only the key: its bundle's asset is a property.
    expect(resource.Properties?.ReaderCode).toEqual((reader.fn.Properties!.Code as { S3Key: unknown }).S3Key);
    expect(String(resource.Properties?.ReaderCode)).toMatch(/^[0-9a-f]{64}\.zip$/);
    for (const { name, env } of functions) {
      if (!(name in ROUTES)) continue;
      const wired = verifiesWithTokenKey(ROUTES[name]) || name === 'createToken';
      expect(env.TOKEN_PUBLIC_KEY !== undefined, name).toBe(wired);
      // A route group's nested stack takes it as a parameter from its parent (the resource's attribute).
      if (wired) expect(Object.keys(env.TOKEN_PUBLIC_KEY as object), name).toEqual(['Ref']);
      expect(env.SIGNING_KMS_KEY_ID !== undefined, name).toBe(name === 'createToken');
    }
  });

  it('serves the service secrets by ARN, never by value, and lets only the functions given one read it (GetSecretValue on that secret, its key through Secrets Manager)', () => {
    const functions = functionsOf(s);
    const withSecret = (variable: string) =>
      functions
        .filter((f) => f.env[variable] !== undefined)
        .map((f) => f.name)
        .sort();
    // No value in any function's configuration, nor any dynamic reference that would put one there.
    for (const f of functions) {
      expect(f.env.CURSOR_SECRET, f.name).toBeUndefined();
      expect(f.env.WEBHOOK_SECRET, f.name).toBeUndefined();
    }
    for (const { name, template } of s.code)
      expect(JSON.stringify(template.toJSON()), name).not.toContain('{{resolve:');
    const secretReads = (f: (typeof functions)[number]) =>
      f.statements.filter((st) => actionsOf(st).includes('secretsmanager:GetSecretValue'));
    for (const f of functions) {
      const arns = [f.env.CURSOR_SECRET_ARN, f.env.WEBHOOK_SECRET_ARN].filter(Boolean);
      // The ARN (the secret's Ref), exported by the stateful stack.
      for (const arn of arns)
        expect(JSON.stringify(arn), f.name).toMatch(
          /^\{"Fn::ImportValue":"MedspaApi-dev-Stateful:ExportsOutputRefData(Cursor|Webhook)Secret/,
        );
      const reads = secretReads(f);
      expect(
        reads.map((st) => actionsOf(st)),
        f.name,
      ).toEqual(arns.map(() => ['secretsmanager:GetSecretValue']));
      expect(reads.map((st) => st.Resource).sort(), f.name).toEqual(
        [...arns].sort((x, y) => (JSON.stringify(x) < JSON.stringify(y) ? -1 : 1)),
      );
      const secretKey = f.statements.filter((st) => JSON.stringify(st.Condition ?? {}).includes('secretsmanager.'));
      expect(secretKey.length, f.name).toBe(arns.length > 0 ? 1 : 0);
      for (const st of secretKey) {
        expect(actionsOf(st)).toEqual(['kms:Decrypt']);
        expect(st.Condition).toEqual({
          StringEquals: {
            'kms:ViaService': { 'Fn::Join': ['', ['secretsmanager.', { Ref: 'AWS::Region' }, '.amazonaws.com']] },
          },
        });
      }
    }
    // Only where the code reads them (locally, a function the stage does not grant one cannot read it).
    // Subscription secrets are sealed at rest by these routes and opened to sign by the delivering ones.
    expect(withSecret('WEBHOOK_SECRET_ARN')).toEqual([
      'createWebhook',
      'deliverWebhook',
      'retryWebhookDelivery',
      'rotateWebhookSecret',
      'testWebhook',
    ]);
    // Cursors (every list that takes `cursor`), manage tokens (the public bookings, and the stream
    // worker that puts them in appointment.created) and hold tokens (public holds).
    const cursorRoutes = Object.entries(ROUTES)
      .filter(([, r]) => secretsOf(r).includes('cursor'))
      .map(([op]) => op);
    expect(withSecret('CURSOR_SECRET_ARN')).toEqual([...cursorRoutes, 'streamToBus'].sort());
    expect(cursorRoutes).toEqual(
      expect.arrayContaining([
        'listClients',
        'getAuditLog',
        'getAppointments',
        'listWebhookDeliveries',
        'createPublicBooking',
        'getPublicBooking',
        'cancelPublicBooking',
        'reschedulePublicBooking',
        // Hold tokens are sealed like manage tokens.
        'createPublicHold',
        'releasePublicHold',
      ]),
    );
    for (const op of [
      'getClient',
      'getPractice',
      'searchAvailability',
      'getPublicPractice',
      'listPublicServices',
      'getRevenueReport',
    ])
      expect(cursorRoutes).not.toContain(op);
    statefulTemplate(s).allResourcesProperties('AWS::SecretsManager::Secret', {
      KmsKeyId: Match.anyValue(),
      GenerateSecretString: Match.objectLike({ PasswordLength: 48 }),
    });
  });

  it('puts the custom bus in the stateful stack and one rule per lib/events/rules.ts row on it, to the events queue', () => {
    const stateful = statefulTemplate(s);
    stateful.hasResourceProperties('AWS::Events::EventBus', {
      Name: 'medspa-api-dev',
      KmsKeyIdentifier: Match.anyValue(),
    });
    const workersTemplate = Template.fromStack(s.stateless.workers);
    const busRules = ofType(workersTemplate, 'AWS::Events::Rule').filter(([, r]) => r.Properties?.EventBusName);
    expect(busRules).toHaveLength(EVENT_RULES.length);
    const eventsQueue = Object.keys(resourcesOf(workersTemplate)).find((id) => /^EventsQueue[0-9A-F]{8}$/.test(id));
    for (const rule of EVENT_RULES) {
      const [, found] = busRules.find(([id]) => id.startsWith(rule.name))!;
      expect(found.Properties?.EventPattern).toEqual(rule.pattern);
      expect(JSON.stringify(found.Properties?.EventBusName)).toContain(
        'MedspaApi-dev-Stateful:ExportsOutputRefDataBus',
      );
      const [target] = found.Properties!.Targets as Json[];
      expect(logicalIdOf(target.Arn)).toBe(eventsQueue);
      expect(target.DeadLetterConfig).toBeDefined();
    }
  });

  it('gives every queue a dead-letter queue, SSE and TLS-only access', () => {
    const workersStack = s.stateless.workers;
    const workersTemplate = Template.fromStack(workersStack);
    const idOf = (queue: Queue) => workersStack.getLogicalId(queue.node.defaultChild as CfnElement);
    const dlqs = new Set(Object.values(workersStack.deadLetterQueues).map(idOf));
    const queues = ofType(workersTemplate, 'AWS::SQS::Queue');
    expect(queues).toHaveLength(Object.keys(workersStack.queues).length + dlqs.size);
    // The queues of events (and their dead-letter queues) carry PHI: the customer-managed key, as the bus.
    const underDataKey = new Set(
      ['events', 'deliveries'].flatMap((name) => [
        idOf(workersStack.queues[name]),
        idOf(workersStack.deadLetterQueues[name]),
      ]),
    );
    for (const [id, queue] of queues) {
      if (underDataKey.has(id)) {
        expect(queue.Properties?.KmsMasterKeyId, id).toEqual({
          'Fn::ImportValue': expect.stringMatching(/^MedspaApi-dev-Stateful:ExportsOutputFnGetAttDataDataKey.*Arn/),
        });
        expect(queue.Properties?.SqsManagedSseEnabled, id).toBeUndefined();
      } else expect(queue.Properties?.SqsManagedSseEnabled, id).toBe(true);
      const redrive = queue.Properties?.RedrivePolicy as Json | undefined;
      if (dlqs.has(id)) expect(redrive, id).toBeUndefined();
      else expect(dlqs.has(logicalIdOf(redrive?.deadLetterTargetArn)!), id).toBe(true);
    }
    for (const [name, def] of Object.entries(workers)) {
      if (def.trigger.kind !== 'queue') continue;
      const queue = resourcesOf(workersTemplate)[idOf(workersStack.queues[def.trigger.queue])];
      expect(queue.Properties, name).toMatchObject({
        VisibilityTimeout: def.trigger.visibilityTimeoutSeconds,
        RedrivePolicy: { maxReceiveCount: def.trigger.maxReceiveCount },
      });
    }
    const tlsOnly = ofType(workersTemplate, 'AWS::SQS::QueuePolicy')
      .flatMap(([, p]) => statementsIn(p.Properties))
      .filter((st) => st.Effect === 'Deny' && JSON.stringify(st.Condition).includes('aws:SecureTransport'));
    expect(tlsOnly.length).toBe(queues.length);
  });

  it("lets EventBridge (this account's only) use the data key for the encrypted queues, each queue policy narrowed to its rules, and the queue workers use it through SQS only", () => {
    const keyPolicy = statementsIn(
      ofType(statefulTemplate(s), 'AWS::KMS::Key').find(([id]) => id.startsWith('DataDataKey'))![1].Properties,
    );
    expect(keyPolicy.find((st) => st.Sid === 'EventBridgeToEncryptedQueues')).toEqual({
      Sid: 'EventBridgeToEncryptedQueues',
      Effect: 'Allow',
      Principal: { Service: 'events.amazonaws.com' },
      Action: ['kms:Decrypt', 'kms:GenerateDataKey'],
      Resource: '*',
      Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
    });
    // No other grant to EventBridge on the key but CDK's own for the bus (narrowed to the bus).
    const toEvents = keyPolicy.filter((st) => JSON.stringify(st.Principal ?? '').includes('events.amazonaws.com'));
    for (const st of toEvents) expect(st.Condition, JSON.stringify(st)).toBeDefined();
    const workersTemplate = Template.fromStack(s.stateless.workers);
    const fromEvents = ofType(workersTemplate, 'AWS::SQS::QueuePolicy')
      .flatMap(([, p]) => statementsIn(p.Properties))
      .filter((st) => st.Effect === 'Allow' && String(st.Sid).startsWith('EventRule'));
    expect(fromEvents.length).toBe(2 * EVENT_RULES.length);
    for (const st of fromEvents) {
      expect(st.Principal).toEqual({ Service: 'events.amazonaws.com' });
      expect(st.Action).toBe('sqs:SendMessage');
      expect(Object.keys((st.Condition as Json).ArnEquals as Json)).toEqual(['aws:SourceArn']);
    }
    const byName = Object.fromEntries(functionsOf(s).map((f) => [f.name, f.statements]));
    const viaSqs = (name: string) =>
      byName[name]
        .filter((st) => JSON.stringify(st.Condition ?? {}).includes('sqs.'))
        .flatMap(actionsOf)
        .sort();
    // Both send to deliveries and receive from their own queue.
    expect(viaSqs('fanOut')).toEqual(['kms:Decrypt', 'kms:Decrypt', 'kms:GenerateDataKey']);
    expect(viaSqs('deliverWebhook')).toEqual(['kms:Decrypt', 'kms:Decrypt', 'kms:GenerateDataKey']);
    // The retry sweep sends to deliveries only.
    expect(viaSqs('sweepWebhookRetries')).toEqual(['kms:Decrypt', 'kms:GenerateDataKey']);
    for (const name of ['streamToBus', 'aggregateReports', 'sweepReminders']) expect(viaSqs(name), name).toEqual([]);
  });

  it("uses the customer-managed keys' data actions only through the service that owns the data (kms:ViaService), the stream readers included", () => {
    const dataActions = ['kms:Decrypt', 'kms:Encrypt', 'kms:GenerateDataKey', 'kms:ReEncryptFrom', 'kms:ReEncryptTo'];
    for (const f of functionsOf(s)) {
      for (const st of f.statements.filter((x) => actionsOf(x).some((action) => dataActions.includes(action)))) {
        expect(
          Object.keys((st.Condition as Json | undefined)?.StringEquals ?? {}),
          `${f.name} ${JSON.stringify(st)}`,
        ).toEqual(['kms:ViaService']);
      }
    }
    const byName = Object.fromEntries(functionsOf(s).map((f) => [f.name, f.statements]));
    for (const name of ['streamToBus', 'aggregateReports']) {
      expect(byName[name].flatMap(actionsOf), name).toEqual(expect.arrayContaining(STREAM_ACTIONS));
      const tableKey = byName[name].filter(
        (st) => actionsOf(st).includes('kms:Decrypt') && JSON.stringify(st.Condition).includes('dynamodb.'),
      );
      expect(tableKey, name).toHaveLength(1);
      expect(tableKey[0].Condition).toEqual({
        StringEquals: {
          'kms:ViaService': { 'Fn::Join': ['', ['dynamodb.', { Ref: 'AWS::Region' }, '.amazonaws.com']] },
        },
      });
    }
  });

  it('consumes the stream with partial batch responses, bisection, bounded retries and a failure queue', () => {
    const workersTemplate = Template.fromStack(s.stateless.workers);
    workersTemplate.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::ImportValue': Match.stringLikeRegexp('StreamArn') },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 5,
      StartingPosition: 'TRIM_HORIZON',
      DestinationConfig: { OnFailure: { Destination: Match.anyValue() } },
    });
    const sqsMappings = ofType(workersTemplate, 'AWS::Lambda::EventSourceMapping').filter(
      ([, m]) => !JSON.stringify(m.Properties?.EventSourceArn).includes('StreamArn'),
    );
    expect(sqsMappings).toHaveLength(2);
    for (const [, mapping] of sqsMappings)
      expect(mapping.Properties?.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
  });

  it('bounds every worker: no reserved concurrency on the stream workers (one batch per shard), fan-out by its mapping, the webhook worker and the sweep reserved', () => {
    const byName = Object.fromEntries(functionsOf(s).map((f) => [f.name, f.fn]));
    for (const name of ['streamToBus', 'aggregateReports']) {
      expect(byName[name].Properties?.ReservedConcurrentExecutions, name).toBeUndefined();
    }
    expect(byName.fanOut.Properties?.ReservedConcurrentExecutions).toBeUndefined();
    expect(byName.deliverWebhook.Properties?.ReservedConcurrentExecutions).toBe(
      workers.deliverWebhook.reservedConcurrency,
    );
    expect(byName.sweepReminders.Properties?.ReservedConcurrentExecutions).toBe(1);
    expect(byName.sweepWebhookRetries.Properties?.ReservedConcurrentExecutions).toBe(1);
    expect(byName.sweepPlans.Properties?.ReservedConcurrentExecutions).toBe(1);
    const workersTemplate = Template.fromStack(s.stateless.workers);
    const mappingOf = (name: string) =>
      ofType(workersTemplate, 'AWS::Lambda::EventSourceMapping').find(
        ([, m]) => logicalIdOf(m.Properties?.FunctionName) === functionsOf(s).find((f) => f.name === name)!.id,
      )![1].Properties!;
    expect(mappingOf('fanOut').ScalingConfig).toEqual({ MaximumConcurrency: 5 });
    expect(mappingOf('deliverWebhook').ScalingConfig).toEqual({ MaximumConcurrency: 10 });
    for (const name of ['streamToBus', 'aggregateReports']) {
      expect(mappingOf(name).ParallelizationFactor, name).toBe(1);
      expect(mappingOf(name).ScalingConfig, name).toBeUndefined();
    }
    // The acknowledgement of an unreserved worker says what bounds it.
    const reasons = (name: string) => JSON.stringify(s.stateless.workers.functions[name].node.metadata);
    expect(reasons('fanOut')).toContain(
      "fanOut is bounded by its events mapping's MaximumConcurrency (5) of batches of 10.",
    );
    for (const name of ['streamToBus', 'aggregateReports'])
      expect(reasons(name)).toContain(`${name} is bounded by one batch per shard of the table stream at once`);
    workersTemplate.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
    });
  });

  it('alarms when a stream worker falls behind the table stream (IteratorAge), notifying the topic', () => {
    const workersTemplate = Template.fromStack(s.stateless.workers);
    for (const name of ['StreamToBus', 'AggregateReports']) {
      workersTemplate.hasResourceProperties('AWS::CloudWatch::Alarm', {
        MetricName: 'IteratorAge',
        Namespace: 'AWS/Lambda',
        Dimensions: [{ Name: 'FunctionName', Value: { Ref: Match.stringLikeRegexp(`^${name}Handler`) } }],
        Statistic: 'Maximum',
        Threshold: 600_000,
        ComparisonOperator: 'GreaterThanThreshold',
        AlarmActions: [Match.anyValue()],
      });
    }
  });

  it('alarms on the deliveries DLQ, the stream consumer, API 5xx rate and p99 latency, all notifying the topic', () => {
    const workersTemplate = Template.fromStack(s.stateless.workers);
    workersTemplate.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [
        { Name: 'QueueName', Value: { 'Fn::GetAtt': [Match.stringLikeRegexp('^DeliveriesDlq'), 'QueueName'] } },
      ],
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
    });
    workersTemplate.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [
        {
          Name: 'QueueName',
          Value: { 'Fn::GetAtt': [Match.stringLikeRegexp('^StreamToBusFailuresDlq'), 'QueueName'] },
        },
      ],
    });
    workersTemplate.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'Errors',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: Match.stringLikeRegexp('^StreamToBus') } }],
    });
    const main = s.code[0].template;
    main.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Metrics: Match.arrayWith([Match.objectLike({ Expression: Match.stringLikeRegexp('errors / requests') })]),
      Threshold: 1,
    });
    main.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'Latency',
      ExtendedStatistic: 'p99',
      Threshold: 2000,
    });
    main.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: Match.anyValue() });
    for (const [id, alarm] of allOfType(s.code, 'AWS::CloudWatch::Alarm'))
      expect(asArray(alarm.Properties?.AlarmActions).length, id).toBe(1);
  });

  it('is clean under cdk-nag AwsSolutions and HIPAA Security (every acknowledgement carries its reason in code)', () => {
    expect(nagViolations(s.app)).toEqual([]);
  });

  // Here, not in test/infra/edge.test.ts (the edge's other cases): this synth is the default dev
  // stage already, and a second one of it cost that file seconds.
  it('has no edge stack, distribution or origin-verify secret (the edge is off by default outside prod)', () => {
    expect(s.edge).toBeUndefined();
    expect(allOfType(s.all, 'AWS::CloudFront::Distribution')).toEqual([]);
    for (const f of functionsOf(s)) expect(f.env.ORIGIN_VERIFY_SECRET, f.name).toBeUndefined();
  });

  it('keeps every stack far below the CloudFormation resource limit', () => {
    for (const { name, template } of s.all) {
      expect(Object.keys(resourcesOf(template)).length, name).toBeLessThan(COMFORTABLE_RESOURCE_COUNT);
    }
  });
});

describe('stage prod, with a custom domain and options', () => {
  let s: Synthesized;
  beforeAll(() => {
    // As `cdk deploy -c ...` gives them (apiOptionsFromContext), -c edge=false included: one synth
    // for these and for the edge switch's prod case (test/infra/edge.test.ts has the others).
    s = synth({
      stage: 'prod',
      context: {
        // The API Gateway custom domain of a stage without the edge; with it, test/infra/edge.test.ts.
        edge: 'false',
        domainName: 'api.example.com',
        certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/00000000-0000-0000-0000-000000000000',
        throttleRateLimit: '50',
        throttleBurstLimit: '80',
        alarmEmail: 'ops@example.com',
      },
    });
  }, SYNTH_TIMEOUT_MS);

  it('-c edge=false turns the edge off for prod: no edge stack, distribution or origin-verify secret', () => {
    expect(s.edge).toBeUndefined();
    expect(allOfType(s.all, 'AWS::CloudFront::Distribution')).toEqual([]);
    for (const f of functionsOf(s)) expect(f.env.ORIGIN_VERIFY_SECRET, f.name).toBeUndefined();
  });

  it('retains and protects the stateful resources', () => {
    const stateful = statefulTemplate(s);
    stateful.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        DeletionProtectionEnabled: true,
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      }),
    });
    for (const [id, key] of ofType(stateful, 'AWS::KMS::Key')) expect(key.DeletionPolicy, id).toBe('Retain');
    for (const [id, secret] of ofType(stateful, 'AWS::SecretsManager::Secret'))
      expect(secret.DeletionPolicy, id).toBe('Retain');
  });

  it('serves the custom domain with TLS 1.2 at least, mapped to the stage', () => {
    const main = s.code[0].template;
    main.hasResourceProperties('AWS::ApiGatewayV2::DomainName', {
      DomainName: 'api.example.com',
      DomainNameConfigurations: [Match.objectLike({ SecurityPolicy: 'TLS_1_2', EndpointType: 'REGIONAL' })],
    });
    main.resourceCountIs('AWS::ApiGatewayV2::ApiMapping', 1);
    main.hasOutput('DomainTarget', {});
    // Tokens name the public host as issuer, and book.js names it as the API's base.
    for (const f of functionsOf(s).filter((fn) => fn.name in ROUTES))
      expect([f.env.TOKEN_ISSUER, f.env.API_BASE_URL]).toEqual(['https://api.example.com', 'https://api.example.com']);
  });

  it('takes throttling and the alarm address from the options', () => {
    s.code[0].template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 80 },
    });
    s.code[0].template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.com',
    });
  });

  it('is clean under cdk-nag with the domain too', () => {
    expect(nagViolations(s.app)).toEqual([]);
  });

  it('rejects a malformed stage name', () => {
    expect(() => synth({ stage: 'Prod_1' })).toThrow(/Invalid stage/);
  });
});

describe('stage with 80 routes', () => {
  const anyHandler = join(PROJECT_ROOT, 'functions/system/getHealth.ts');
  const methods: HttpMethod[] = ['GET', 'POST', 'PATCH', 'DELETE', 'PUT'];
  const fakeRoutes = (count: number, groups: string[]): Record<string, RouteDef> =>
    Object.fromEntries(
      Array.from({ length: count }, (_, i) => [
        `operation${i}`,
        {
          method: methods[i % methods.length],
          path: `/v1/${groups[i % groups.length]}/r${i}/{id}`,
          group: groups[i % groups.length],
          summary: `fake ${i}`,
          auth: 'public',
        } satisfies RouteDef,
      ]),
    );

  it.each([
    [
      'ten groups',
      [
        'appointments',
        'providers',
        'rooms',
        'equipment',
        'services',
        'clients',
        'products',
        'payments',
        'reports',
        'webhooks',
      ],
    ],
    ['a single group (worst case)', ['everything']],
  ])(
    'stays under 500 resources per stack with %s',
    (_, groups) => {
      const s = synth({ routes: fakeRoutes(80, groups), entryFor: () => anyHandler, signingOperations: [] });
      expect(allOfType(s.code, 'AWS::ApiGatewayV2::Route')).toHaveLength(80);
      for (const { name, template } of s.all) {
        expect(Object.keys(resourcesOf(template)).length, name).toBeLessThan(CFN_RESOURCE_LIMIT);
      }
    },
    SYNTH_TIMEOUT_MS,
  );

  it('rejects two operations on the same METHOD /path', () => {
    const routes = fakeRoutes(2, ['a']);
    routes.operation1 = { ...routes.operation1, method: routes.operation0.method, path: routes.operation0.path };
    expect(() => synth({ routes, entryFor: () => anyHandler, signingOperations: [] })).toThrow(/declared by both/);
  });
});

describe('context options (-c name=value)', () => {
  const optionsFrom = (context: Record<string, string>) => apiOptionsFromContext(new App({ context }).node);

  it('defaults throttling and alarm thresholds, with no domain', () => {
    expect(optionsFrom({})).toEqual({
      ...DEFAULT_API_OPTIONS,
      tokenIssuer: undefined,
      domain: undefined,
      alarmEmail: undefined,
    });
  });

  it('reads the domain, throttling and thresholds', () => {
    const options = optionsFrom({
      domainName: 'api.example.com',
      certificateArn: 'arn:aws:acm:eu-west-1:1:certificate/x',
      throttleRateLimit: '25',
      throttleBurstLimit: '50',
      alarmP99LatencyMs: '900',
    });
    expect(options.domain).toEqual({
      name: 'api.example.com',
      certificateArn: 'arn:aws:acm:eu-west-1:1:certificate/x',
    });
    expect(options.throttle).toEqual({ rateLimit: 25, burstLimit: 50 });
    expect(options.alarms.apiP99LatencyMs).toBe(900);
  });

  it('refuses half a domain and nonsense numbers', () => {
    expect(() => optionsFrom({ domainName: 'api.example.com' })).toThrow(/go together/);
    expect(() => optionsFrom({ throttleRateLimit: '-1' })).toThrow(/positive/);
  });
});
