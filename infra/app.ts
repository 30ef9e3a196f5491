import { App, Tags } from 'aws-cdk-lib';
import { MedspaApiStack } from './stacks/medspa-api-stack';
import { stackName } from './stacks/stage-settings';

/**
 * `npx cdk synth -q` / `npx cdk deploy -c stage=prod`: one stack per stage, environment-agnostic
 * (account and region come from the deploying credentials; no lookups, so synth works offline).
 * Optional context: `tokenIssuer` (e.g. a custom domain URL) instead of the API's endpoint URL.
 */
const app = new App();
const stage = String(app.node.tryGetContext('stage') ?? 'dev');
const tokenIssuer = app.node.tryGetContext('tokenIssuer') as string | undefined;

const stack = new MedspaApiStack(app, stackName(stage), { stage, tokenIssuer });
Tags.of(stack).add('project', 'medspa-api');
Tags.of(stack).add('stage', stage);

app.synth();
