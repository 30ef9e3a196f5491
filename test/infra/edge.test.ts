import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks, HIPAASecurityChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { EDGE_HEADERS } from '../../lib/http/client-ip';
import { COUNTED_MANAGED_RULES, webAclArnParameterName } from '../../infra/stacks/edge-stack';
import { apiOptionsFromContext, DEFAULT_API_OPTIONS, EDGE_REGION } from '../../infra/stacks/stage-settings';
import { defineStage, type StageProps } from '../../infra/stage';

/** A synth of the full route table takes seconds, much more on a loaded machine. */
const SYNTH_TIMEOUT_MS = 240_000;
const CERTIFICATE = 'arn:aws:acm:us-east-1:123456789012:certificate/00000000-0000-0000-0000-000000000000';

type Json = Record<string, unknown>;

/** A stage as `cdk synth` makes it, `-c` options as the app's context; template assertions only (no bundling). */
function stage(name: string, context: Record<string, string> = {}, props: StageProps = {}) {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } });
  const stacks = defineStage(app, name, props);
  const templates = [stacks.stateless, ...Object.values(stacks.stateless.routeGroups)].map((stack) =>
    Template.fromStack(stack),
  );
  const nag = () =>
    [new AwsSolutionsChecks(), new HIPAASecurityChecks()].flatMap((pack) =>
      pack
        .validateScope(app)
        .violations.map(
          (v) => `${v.severity} ${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`,
        ),
    );
  return { ...stacks, main: templates[0], routeTemplates: templates.slice(1), nag };
}

const resourcesOf = (template: Template, type: string) =>
  Object.entries((template.toJSON().Resources ?? {}) as Record<string, { Type: string; Properties: Json }>).filter(
    ([, r]) => r.Type === type,
  );
const routeEnvironments = (s: ReturnType<typeof stage>) =>
  s.routeTemplates.flatMap((t) =>
    resourcesOf(t, 'AWS::Lambda::Function').map(
      ([, fn]) => (fn.Properties.Environment as { Variables: Json }).Variables,
    ),
  );
const hasEdge = (s: ReturnType<typeof stage>) =>
  Boolean(s.edge) && resourcesOf(s.main, 'AWS::CloudFront::Distribution').length === 1;

describe('stage prod (edge on by default)', () => {
  let s: ReturnType<typeof stage>;
  let acl: Template;
  beforeAll(() => {
    s = stage('prod');
    acl = Template.fromStack(s.edge!);
  }, SYNTH_TIMEOUT_MS);

  it('has a CLOUDFRONT web ACL in us-east-1 with a per-IP rate-based rule and the common rule set (its 8 KB body rule counting only)', () => {
    expect(s.edge?.region).toBe(EDGE_REGION);
    expect(s.edge?.stackName).toBe('MedspaApi-prod-Edge');
    acl.resourceCountIs('AWS::WAFv2::WebACL', 1);
    acl.hasResourceProperties('AWS::WAFv2::WebACL', {
      Scope: 'CLOUDFRONT',
      DefaultAction: { Allow: {} },
      Rules: [
        Match.objectLike({
          Name: 'RateLimitPerIp',
          Statement: {
            RateBasedStatement: {
              AggregateKeyType: 'IP',
              Limit: DEFAULT_API_OPTIONS.wafRateLimit,
              EvaluationWindowSec: 300,
            },
          },
          Action: { Block: { CustomResponse: Match.objectLike({ ResponseCode: 429 }) } },
          VisibilityConfig: Match.objectLike({ CloudWatchMetricsEnabled: true }),
        }),
        Match.objectLike({
          Name: 'AWSManagedRulesCommonRuleSet',
          OverrideAction: { None: {} },
          Statement: {
            ManagedRuleGroupStatement: {
              VendorName: 'AWS',
              Name: 'AWSManagedRulesCommonRuleSet',
              RuleActionOverrides: COUNTED_MANAGED_RULES.map((name) => ({ Name: name, ActionToUse: { Count: {} } })),
            },
          },
          VisibilityConfig: Match.objectLike({ CloudWatchMetricsEnabled: true }),
        }),
      ],
    });
    expect(COUNTED_MANAGED_RULES).toEqual(['SizeRestrictions_BODY']);
  });

  it('logs what the ACL blocks or counts, credentials redacted, to a KMS-encrypted aws-waf-logs-* group', () => {
    acl.hasResourceProperties('AWS::WAFv2::LoggingConfiguration', {
      ResourceArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^WebAcl'), 'Arn'] },
      LogDestinationConfigs: [
        Match.objectLike({
          'Fn::Join': ['', Match.arrayWith([Match.stringLikeRegexp(':log-group:aws-waf-logs-medspa-api-prod$')])],
        }),
      ],
      RedactedFields: Match.arrayWith([{ SingleHeader: { Name: 'authorization' } }]),
    });
    acl.hasResourceProperties('AWS::Logs::LogGroup', {
      LogGroupName: 'aws-waf-logs-medspa-api-prod',
      KmsKeyId: Match.anyValue(),
      RetentionInDays: Match.anyValue(),
    });
  });

  it("associates the ACL with the stage's one distribution: its ARN, published in us-east-1, is read at deploy into WebACLId", () => {
    const parameter = webAclArnParameterName('prod');
    acl.hasResourceProperties('AWS::SSM::Parameter', {
      Name: parameter,
      Value: { 'Fn::GetAtt': [Match.stringLikeRegexp('^WebAcl'), 'Arn'] },
    });
    const [[readerId, reader]] = resourcesOf(s.main, 'Custom::AWS');
    expect(JSON.parse(String(reader.Properties.Create))).toMatchObject({
      service: 'SSM',
      action: 'getParameter',
      parameters: { Name: parameter },
      region: EDGE_REGION,
    });
    expect(reader.Properties.Update).toEqual(reader.Properties.Create);
    s.main.resourceCountIs('AWS::CloudFront::Distribution', 1);
    s.main.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({ WebACLId: { 'Fn::GetAtt': [readerId, 'Parameter.Value'] } }),
    });
    expect(s.stateless.dependencies).toContain(s.edge);
  });

  it('sends CloudFront to the HTTP API uncached, with the origin-verify secret every route function is given, from Secrets Manager', () => {
    const [[, distribution]] = resourcesOf(s.main, 'AWS::CloudFront::Distribution');
    const config = distribution.Properties.DistributionConfig as { Origins: Json[]; DefaultCacheBehavior: Json };
    const [origin] = config.Origins;
    expect(JSON.stringify(origin.DomainName)).toContain('ApiEndpoint');
    expect(origin.CustomOriginConfig).toMatchObject({
      OriginProtocolPolicy: 'https-only',
      OriginSSLProtocols: ['TLSv1.2'],
    });
    const [header] = origin.OriginCustomHeaders as Array<{ HeaderName: string; HeaderValue: unknown }>;
    expect(header.HeaderName).toBe(EDGE_HEADERS.verify);
    const secretRef = JSON.stringify(header.HeaderValue);
    expect(secretRef).toContain('{{resolve:secretsmanager:');
    expect(config.DefaultCacheBehavior).toMatchObject({
      ViewerProtocolPolicy: 'https-only',
      CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad', // CachingDisabled
      OriginRequestPolicyId: 'b689b0a8-53d0-40ab-baf2-68738e2966ac', // AllViewerExceptHostHeader
    });
    // No CloudFront Function: the functions name API_BASE_URL for the edge's requests (lib/http/server-url.ts).
    expect(config.DefaultCacheBehavior.FunctionAssociations).toBeUndefined();
    s.main.resourceCountIs('AWS::CloudFront::Function', 0);
    s.main.hasResourceProperties('AWS::SecretsManager::Secret', {
      KmsKeyId: Match.anyValue(),
      GenerateSecretString: Match.objectLike({ PasswordLength: 48 }),
    });
    const environments = routeEnvironments(s);
    expect(environments.length).toBeGreaterThan(0);
    for (const env of environments) {
      expect(JSON.stringify(env.ORIGIN_VERIFY_SECRET)).toContain('{{resolve:secretsmanager:');
      // Tokens and the API's own URLs name the public URL (the distribution), not the origin behind it.
      expect(JSON.stringify(env.TOKEN_ISSUER)).toContain('EdgeDistribution');
      expect(JSON.stringify(env.API_BASE_URL)).toContain('EdgeDistribution');
    }
    s.main.hasOutput('ApiUrl', {
      Value: {
        'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [Match.stringLikeRegexp('^EdgeDistribution'), 'DomainName'] }]],
      },
    });
  });

  it('is clean under cdk-nag, the edge stack included', () => {
    expect(s.nag()).toEqual([]);
  });
});

// The dev stage's default (no edge, no distribution, no origin-verify secret) is asserted on the
// dev synth test/infra/stack.test.ts makes anyway: a synth of its own here cost seconds.

describe('the -c edge switch', () => {
  it(
    'turns the edge on for a non-production stage, with -c wafRateLimit',
    () => {
      const s = stage('dev', { edge: 'true', wafRateLimit: '1200' });
      expect(hasEdge(s)).toBe(true);
      Template.fromStack(s.edge!).hasResourceProperties('AWS::WAFv2::WebACL', {
        Rules: Match.arrayWith([
          Match.objectLike({
            Name: 'RateLimitPerIp',
            Statement: { RateBasedStatement: Match.objectLike({ Limit: 1200 }) },
          }),
        ]),
      });
    },
    SYNTH_TIMEOUT_MS,
  );

  // Its prod case (-c edge=false) is asserted on the prod synth of test/infra/stack.test.ts.

  it("refuses anything but true or false, and a rate limit under WAF's minimum", () => {
    const options = (context: Record<string, string>) => apiOptionsFromContext(new App({ context }).node);
    expect(options({}).edge).toBeUndefined();
    expect(options({ edge: 'true' }).edge).toBe(true);
    expect(options({ edge: 'false' }).edge).toBe(false);
    expect(() => options({ edge: 'yes' })).toThrow(/true or false/);
    expect(() => options({ wafRateLimit: '5' })).toThrow(/at least 10/);
  });
});

describe('stage prod with a custom domain', () => {
  it(
    'serves the domain from the distribution (TLSv1.2_2021), not from an API Gateway domain, and stays nag clean',
    () => {
      const s = stage('prod', {}, { options: { domain: { name: 'api.example.com', certificateArn: CERTIFICATE } } });
      s.main.hasResourceProperties('AWS::CloudFront::Distribution', {
        DistributionConfig: Match.objectLike({
          Aliases: ['api.example.com'],
          ViewerCertificate: Match.objectLike({
            AcmCertificateArn: CERTIFICATE,
            MinimumProtocolVersion: 'TLSv1.2_2021',
          }),
        }),
      });
      s.main.resourceCountIs('AWS::ApiGatewayV2::DomainName', 0);
      s.main.hasOutput('DomainTarget', {});
      for (const env of routeEnvironments(s)) expect(env.TOKEN_ISSUER).toBe('https://api.example.com');
      expect(s.nag()).toEqual([]);
    },
    SYNTH_TIMEOUT_MS,
  );

  it(
    'refuses a certificate outside us-east-1, which CloudFront cannot use',
    () => {
      const elsewhere = CERTIFICATE.replace('us-east-1', 'eu-west-1');
      expect(() =>
        stage('prod', {}, { options: { domain: { name: 'api.example.com', certificateArn: elsewhere } } }),
      ).toThrow(/us-east-1/);
    },
    SYNTH_TIMEOUT_MS,
  );
});
