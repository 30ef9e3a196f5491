import { App, Tags, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, HIPAASecurityChecks } from 'cdk-nag';
import { defineStage } from './stage';

/**
 * `npx cdk synth -q` / `npx cdk deploy --all -c stage=prod`: two stacks per stage, both
 * environment-agnostic (account and region come from the deploying credentials; no lookups, so
 * synth works offline), and a third with the edge on (default for production stages):
 *   MedspaApi-<stage>-Stateful   table + stream, KMS keys, event bus, secrets
 *   MedspaApi-<stage>-Stateless  HTTP API, route and worker functions, queues, rules, alarms,
 *                                and with the edge, the CloudFront distribution in front of the API
 *   MedspaApi-<stage>-Edge       the AWS WAF web ACL, in us-east-1 (account still agnostic)
 * Options (all `-c name=value`): see apiOptionsFromContext in stacks/stage-settings.ts.
 * `-c nag=false` skips the cdk-nag packs (AwsSolutions, HIPAA Security) that otherwise fail synth
 * on an unacknowledged finding.
 */
const app = new App();
const stage = String(app.node.tryGetContext('stage') ?? 'dev');
const { stateful, stateless, edge } = defineStage(app, stage);

for (const stack of [stateful, stateless, ...(edge ? [edge] : [])]) {
  Tags.of(stack).add('project', 'medspa-api');
  Tags.of(stack).add('stage', stage);
}

if (String(app.node.tryGetContext('nag') ?? 'true') !== 'false') {
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new HIPAASecurityChecks(app));
}

app.synth();
