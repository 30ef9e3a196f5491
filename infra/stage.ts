import type { App } from 'aws-cdk-lib';
import { StatefulStack } from './stacks/stateful-stack';
import { StatelessStack } from './stacks/stateless-stack';
import { apiOptionsFromContext, isProductionStage, stackNames } from './stacks/stage-settings';

/**
 * One practice environment: its two stacks, as `cdk deploy` creates them and as the local runtime
 * synthesizes them to enforce their IAM and wiring (infra/local/aws).
 */
export function defineStage(app: App, stage: string) {
  const names = stackNames(stage);
  const stateful = new StatefulStack(app, names.stateful, { stage, terminationProtection: isProductionStage(stage) });
  const stateless = new StatelessStack(app, names.stateless, {
    stage,
    data: stateful.data,
    options: apiOptionsFromContext(app.node),
  }); // deployed after the stateful stack: it imports its exports
  return { stateful, stateless };
}
