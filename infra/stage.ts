import type { App } from 'aws-cdk-lib';
import { EdgeStack, webAclArnParameterName } from './stacks/edge-stack';
import { StatefulStack } from './stacks/stateful-stack';
import { StatelessStack, type StatelessStackProps } from './stacks/stateless-stack';
import {
  apiOptionsFromContext,
  DEFAULT_API_OPTIONS,
  edgeEnabled,
  isProductionStage,
  stackNames,
} from './stacks/stage-settings';

/** What a caller may set beside the stage (tests: options, a smaller route table); options default to the app's context. */
export type StageProps = Omit<StatelessStackProps, 'stage' | 'data' | 'edge'>;

/**
 * One practice environment: its stacks, as `cdk deploy` creates them and as the local runtime
 * synthesizes them to enforce their IAM and wiring (infra/local/aws). With the edge on (default for
 * production stages, `-c edge=`), a third stack in us-east-1 holds the web ACL; it deploys first.
 */
export function defineStage(app: App, stage: string, props: StageProps = {}) {
  const names = stackNames(stage);
  const options = props.options ?? apiOptionsFromContext(app.node);
  const stateful = new StatefulStack(app, names.stateful, { stage, terminationProtection: isProductionStage(stage) });
  const edge = edgeEnabled(stage, options)
    ? new EdgeStack(app, names.edge, { stage, rateLimit: options.wafRateLimit ?? DEFAULT_API_OPTIONS.wafRateLimit })
    : undefined;
  const stateless = new StatelessStack(app, names.stateless, {
    ...props,
    stage,
    data: stateful.data,
    options,
    edge: edge ? { webAclArnParameter: webAclArnParameterName(stage) } : undefined,
  }); // deployed after the stateful stack: it imports its exports
  // Read by name at deploy, not referenced: CDK would not order the two stacks by itself.
  if (edge) stateless.addStackDependency(edge, "reads the web ACL's ARN from its SSM parameter");
  return { stateful, stateless, edge };
}
