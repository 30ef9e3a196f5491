import { join } from 'node:path';
import { Construct } from 'constructs';
import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import type { IRole } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';

/** ESM bundles: CommonJS dependencies that call `require` get one. */
export const ESM_REQUIRE_BANNER = "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

export interface ApiFunctionProps {
  /** Absolute path of the handler module (`functions/<group>/<operation>.ts`). */
  entry: string;
  projectRoot: string;
  description: string;
  /** The role must be allowed to write to this log group (HandlerRole's logGroupPrefix). */
  role: IRole;
  logGroupName: string;
  environment: Record<string, string>;
  logRetention: RetentionDays;
  logRemovalPolicy: RemovalPolicy;
  memorySize?: number;
  timeout?: Duration;
}

/** One API operation: a bundled Node 22 arm64 Lambda with its own log group. */
export class ApiFunction extends Construct {
  readonly handler: NodejsFunction;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    super(scope, id);

    this.logGroup = new LogGroup(this, 'Logs', {
      logGroupName: props.logGroupName,
      retention: props.logRetention,
      removalPolicy: props.logRemovalPolicy,
    });

    this.handler = new NodejsFunction(this, 'Handler', {
      entry: props.entry,
      handler: 'handler',
      projectRoot: props.projectRoot,
      depsLockFilePath: join(props.projectRoot, 'package-lock.json'),
      description: props.description,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(10),
      role: props.role,
      logGroup: this.logGroup,
      environment: { NODE_OPTIONS: '--enable-source-maps', ...props.environment },
      bundling: {
        format: OutputFormat.ESM,
        target: 'node22',
        mainFields: ['module', 'main'],
        minify: true,
        sourceMap: true,
        sourcesContent: false,
        banner: ESM_REQUIRE_BANNER,
        // Bundle everything, the AWS SDK included: the version we test is the version we run.
        externalModules: [],
      },
    });
  }
}
