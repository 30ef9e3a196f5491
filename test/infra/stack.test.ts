import { join } from 'node:path';
import { App, type Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { TABLE_SHAPE } from '../../lib/db/table';
import type { HttpMethod, RouteDef } from '../../lib/http/route';
import { routes } from '../../lib/routes';
import { MedspaApiStack, PROJECT_ROOT, type MedspaApiStackProps } from '../../infra/stacks/medspa-api-stack';

const CFN_RESOURCE_LIMIT = 500;
/** A synth of the full route table takes a few seconds, much more on a loaded machine. */
const SYNTH_TIMEOUT_MS = 180_000;
const ROUTES: Record<string, RouteDef> = routes;

type Json = Record<string, unknown>;
type Resources = Record<string, { Type: string; Properties?: Json; DeletionPolicy?: string; UpdateReplacePolicy?: string }>;

interface Synthesized {
  stack: MedspaApiStack;
  main: Template;
  /** The main stack and every nested stack. */
  all: Array<{ name: string; template: Template }>;
}

/** Template assertions only: context skips esbuild bundling. */
function synth(props: Omit<MedspaApiStackProps, 'stage'> & { stage?: string } = {}): Synthesized {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stage = props.stage ?? 'dev';
  const stack = new MedspaApiStack(app, `MedspaApi-${stage}`, { ...props, stage });
  const nested: Stack[] = Object.values(stack.routeGroups);
  const main = Template.fromStack(stack);
  return {
    stack,
    main,
    all: [{ name: stack.stackName, template: main }, ...nested.map((s) => ({ name: s.node.path, template: Template.fromStack(s) }))],
  };
}

const resourcesOf = (template: Template): Resources => (template.toJSON().Resources ?? {}) as Resources;
const ofType = (template: Template, type: string) => Object.entries(resourcesOf(template)).filter(([, r]) => r.Type === type);
const allOfType = (s: Synthesized, type: string) => s.all.flatMap(({ template }) => ofType(template, type));
const asArray = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** Every policy statement of every resource (IAM policies, role inline policies, key policies...). */
function statementsIn(value: unknown, found: Json[] = []): Json[] {
  if (Array.isArray(value)) value.forEach((v) => statementsIn(v, found));
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'Statement') found.push(...(asArray(inner) as Json[]));
      else statementsIn(inner, found);
    }
  }
  return found;
}
const allStatements = (s: Synthesized) => s.all.flatMap(({ template }) => statementsIn(template.toJSON().Resources));

/** `{ Ref: 'HandlerRoleXYZ' }` or `{ 'Fn::GetAtt': ['HandlerRoleXYZ', 'Arn'] }` -> logical id. */
const logicalIdOf = (ref: unknown): string | undefined => {
  const r = ref as { Ref?: string; 'Fn::GetAtt'?: [string, string] };
  return r?.Ref ?? r?.['Fn::GetAtt']?.[0];
};

describe('MedspaApi stack (current routes, dev)', () => {
  let s: Synthesized;
  beforeAll(() => {
    s = synth();
  }, SYNTH_TIMEOUT_MS);

  it('derives the table from TABLE_SHAPE', () => {
    const keyAttributes = [
      TABLE_SHAPE.partitionKey,
      TABLE_SHAPE.sortKey,
      ...TABLE_SHAPE.globalIndexes.flatMap((index) => [index.partitionKey, index.sortKey]),
    ];
    s.main.resourceCountIs('AWS::DynamoDB::Table', 1);
    s.main.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: TABLE_SHAPE.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE_SHAPE.sortKey, KeyType: 'RANGE' },
      ],
      AttributeDefinitions: Match.arrayWith(keyAttributes.map((name) => ({ AttributeName: name, AttributeType: 'S' }))),
      GlobalSecondaryIndexes: TABLE_SHAPE.globalIndexes.map((index) => ({
        IndexName: index.name,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
      BillingMode: 'PAY_PER_REQUEST',
      StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
      TimeToLiveSpecification: { AttributeName: TABLE_SHAPE.ttlAttribute, Enabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    });
  });

  it('is disposable outside prod', () => {
    const [[, table]] = ofType(s.main, 'AWS::DynamoDB::Table');
    expect(table.DeletionPolicy).toBe('Delete');
    expect(table.Properties?.DeletionProtectionEnabled).not.toBe(true);
  });

  it('has an ECC_NIST_P256 SIGN_VERIFY signing key', () => {
    s.main.resourceCountIs('AWS::KMS::Key', 1);
    s.main.hasResourceProperties('AWS::KMS::Key', { KeySpec: 'ECC_NIST_P256', KeyUsage: 'SIGN_VERIFY' });
  });

  it('has exactly one Lambda per route, Node 22 on arm64, with the env the functions read', () => {
    const functions = allOfType(s, 'AWS::Lambda::Function');
    expect(functions).toHaveLength(Object.keys(ROUTES).length);
    for (const [, fn] of functions) {
      expect(fn.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], Handler: 'index.handler' });
      const env = (fn.Properties?.Environment as { Variables: Json }).Variables;
      for (const name of ['TABLE_NAME', 'TOKEN_ISSUER', 'SIGNING_KMS_KEY_ID', 'POWERTOOLS_SERVICE_NAME', 'LOG_LEVEL']) {
        expect(env[name], name).toBeDefined();
      }
      expect(env.NODE_OPTIONS).toBe('--enable-source-maps');
      // Its own log group, with a retention.
      const logGroupId = logicalIdOf((fn.Properties?.LoggingConfig as Json | undefined)?.LogGroup);
      expect(logGroupId).toBeDefined();
    }
    for (const { template } of s.all) {
      const logGroups = Object.fromEntries(ofType(template, 'AWS::Logs::LogGroup'));
      for (const [, fn] of ofType(template, 'AWS::Lambda::Function')) {
        const logGroup = logGroups[logicalIdOf((fn.Properties?.LoggingConfig as Json).LogGroup)!];
        expect(logGroup?.Properties?.RetentionInDays).toBeGreaterThan(0);
      }
    }
    // Each function is described by its operation: one per route table entry.
    const descriptions = functions.map(([, fn]) => String(fn.Properties?.Description).split(':')[0]).sort();
    expect(descriptions).toEqual(Object.keys(ROUTES).sort());
  });

  it('has one API route per route, keyed METHOD /path (the fallback as $default), each with a Lambda integration', () => {
    const routeKeys = allOfType(s, 'AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties?.RouteKey);
    const expected = Object.values(ROUTES).map((route) => (route.fallback ? '$default' : `${route.method} ${route.path}`));
    expect(expected).toContain('$default');
    expect(routeKeys.sort()).toEqual(expected.sort());
    expect(allOfType(s, 'AWS::ApiGatewayV2::Integration')).toHaveLength(expected.length);
    expect(allOfType(s, 'AWS::Lambda::Permission')).toHaveLength(expected.length);
    s.main.resourceCountIs('AWS::ApiGatewayV2::Api', 1);
    s.main.hasResourceProperties('AWS::ApiGatewayV2::Stage', { StageName: '$default', AutoDeploy: true });
    s.main.hasOutput('ApiUrl', {});
  });

  it('shares one role per route group (plus one for token signing)', () => {
    const groups = new Set(Object.values(ROUTES).map((route) => route.group));
    const roles = allOfType(s, 'AWS::IAM::Role');
    expect(roles.length).toBeLessThanOrEqual(groups.size + 1);
    expect(roles.length).toBeGreaterThanOrEqual(groups.size);
  });

  it('has no wildcard IAM actions and no DynamoDB access on Resource "*"', () => {
    const statements = allStatements(s);
    expect(statements.length).toBeGreaterThan(0);
    for (const statement of statements) {
      const actions = asArray(statement.Action as string | string[]);
      expect(actions).not.toContain('*');
      expect(actions).not.toContain('dynamodb:*');
      if (actions.some((action) => action.startsWith('dynamodb:'))) {
        expect(asArray(statement.Resource)).not.toContain('*');
      }
    }
  });

  it('scopes every IAM (non-key) policy statement to named resources', () => {
    for (const { template } of s.all) {
      for (const type of ['AWS::IAM::Role', 'AWS::IAM::Policy']) {
        for (const [, resource] of ofType(template, type)) {
          const { AssumeRolePolicyDocument: _trust, ...rest } = resource.Properties ?? {};
          for (const statement of statementsIn(rest)) expect(asArray(statement.Resource)).not.toContain('*');
        }
      }
    }
  });

  it('lets only the token-signing role call kms:Sign; every role may call kms:GetPublicKey', () => {
    const functions = allOfType(s, 'AWS::Lambda::Function');
    const rolesUsed = new Map<string, string[]>();
    for (const [, fn] of functions) {
      const role = logicalIdOf(fn.Properties?.Role)!;
      const operation = String(fn.Properties?.Description).split(':')[0];
      rolesUsed.set(role, [...(rolesUsed.get(role) ?? []), operation]);
    }
    for (const { template } of s.all) {
      for (const [roleId, role] of ofType(template, 'AWS::IAM::Role')) {
        const actions = statementsIn(role.Properties).flatMap((st) => asArray(st.Action as string | string[]));
        expect(actions).toContain('kms:GetPublicKey');
        if (actions.includes('kms:Sign')) expect(rolesUsed.get(roleId)).toEqual(['createToken']);
      }
      for (const [, policy] of ofType(template, 'AWS::IAM::Policy')) {
        const actions = statementsIn(policy.Properties).flatMap((st) => asArray(st.Action as string | string[]));
        expect(actions).not.toContain('kms:Sign');
      }
    }
    const signing = allStatements(s).filter((st) => asArray(st.Action as string | string[]).includes('kms:Sign'));
    expect(signing).toHaveLength(1);
  });

  it('keeps every stack under the CloudFormation resource limit', () => {
    for (const { name, template } of s.all) {
      expect(Object.keys(resourcesOf(template)).length, name).toBeLessThan(CFN_RESOURCE_LIMIT);
    }
  });
});

describe('MedspaApi stack (prod)', () => {
  it('retains and protects the stateful resources', () => {
    const { main } = synth({ stage: 'prod' });
    main.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({ DeletionProtectionEnabled: true }),
    });
    main.hasResource('AWS::KMS::Key', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  }, SYNTH_TIMEOUT_MS);

  it('rejects a malformed stage name', () => {
    expect(() => synth({ stage: 'Prod_1' })).toThrow(/Invalid stage/);
  });
});

describe('MedspaApi stack with 80 routes', () => {
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
    ['ten groups', ['appointments', 'providers', 'rooms', 'equipment', 'services', 'clients', 'products', 'payments', 'reports', 'webhooks']],
    ['a single group (worst case)', ['everything']],
  ])('stays under 500 resources per stack with %s', (_, groups) => {
    const s = synth({ routes: fakeRoutes(80, groups), entryFor: () => anyHandler, signingOperations: [] });
    expect(allOfType(s, 'AWS::Lambda::Function')).toHaveLength(80);
    expect(allOfType(s, 'AWS::ApiGatewayV2::Route')).toHaveLength(80);
    for (const { name, template } of s.all) {
      expect(Object.keys(resourcesOf(template)).length, name).toBeLessThan(CFN_RESOURCE_LIMIT);
    }
  }, SYNTH_TIMEOUT_MS);

  it('gives GET-only groups reads plus audit-partition PutItem only', () => {
    const routes: Record<string, RouteDef> = {
      getReport: { method: 'GET', path: '/v1/reports/x', group: 'reports', summary: 'r', auth: 'public' },
      createClient: { method: 'POST', path: '/v1/clients', group: 'clients', summary: 'c', auth: 'public' },
    };
    const s = synth({ routes, entryFor: () => anyHandler, signingOperations: [] });
    const dynamoStatements = (group: string) =>
      statementsIn(Template.fromStack(s.stack.routeGroups[group]).toJSON().Resources).filter((st) =>
        asArray(st.Action as string | string[]).some((action) => action.startsWith('dynamodb:')),
      );
    const reports = dynamoStatements('reports');
    const writes = reports.filter((st) => asArray(st.Action as string | string[]).some((a) => !['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'].includes(a)));
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatchObject({ Action: 'dynamodb:PutItem', Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['P#*#AUDIT'] } } });
    const clientActions = dynamoStatements('clients').flatMap((st) => asArray(st.Action as string | string[]));
    expect(clientActions).toEqual(expect.arrayContaining(['dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:ConditionCheckItem']));
  });

  it('rejects two operations on the same METHOD /path', () => {
    const routes = fakeRoutes(2, ['a']);
    routes.operation1 = { ...routes.operation1, method: routes.operation0.method, path: routes.operation0.path };
    expect(() => synth({ routes, entryFor: () => anyHandler, signingOperations: [] })).toThrow(/declared by both/);
  });
});
