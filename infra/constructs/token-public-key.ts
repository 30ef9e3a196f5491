import { Construct } from 'constructs';
import { CustomResource, Duration } from 'aws-cdk-lib';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { AppFunction, type FunctionLogs } from './app-function';
import { acknowledge, bothPacks } from './nag';

export interface TokenPublicKeyProps {
  signingKey: IKey;
  /** Absolute path of functions/deploy/tokenPublicKey.ts. */
  entry: string;
  projectRoot: string;
  stage: string;
  logGroupName: string;
  logs: FunctionLogs;
}

/**
 * The token key's public half, read from KMS once per deploy (Custom::TokenPublicKey, run again
 * when the key or the reader's code changes), so that no function reads it on a cold start:
 * `value` is the SPKI DER, base64, for TOKEN_PUBLIC_KEY. Only this function's role may call
 * kms:GetPublicKey. CDK's AwsCustomResource would return the binary `PublicKey` decoded as UTF-8
 * text (aws/aws-cdk#19065).
 */
export class TokenPublicKey extends Construct {
  readonly value: string;

  constructor(scope: Construct, id: string, props: TokenPublicKeyProps) {
    super(scope, id);
    // Its description does not start with an operation's name: the local runtime's model leaves it
    // out with CDK's own helpers, as it runs at deploy only (tested against a stand-in KMS).
    const fn = new AppFunction(this, 'Reader', {
      entry: props.entry,
      projectRoot: props.projectRoot,
      description: `medspa-api ${props.stage}: reads the token key's public half at deploy (Custom::TokenPublicKey)`,
      logGroupName: props.logGroupName,
      logs: props.logs,
      // Its read waits up to 31 s for a new role's grant to reach KMS (functions/deploy/tokenPublicKey.ts).
      timeout: Duration.seconds(60),
    });
    fn.role.grantOnce(
      'tokenPublicKey',
      () =>
        new PolicyStatement({
          sid: 'TokenPublicKeyRead',
          effect: Effect.ALLOW,
          actions: ['kms:GetPublicKey'],
          resources: [props.signingKey.keyArn],
        }),
    );
    acknowledge(fn, {
      ...bothPacks(
        undefined,
        'LambdaDLQ',
        "Invoked synchronously by CloudFormation at deploy, which reports a failure as the deploy's.",
      ),
      ...bothPacks(undefined, 'LambdaConcurrency', 'Runs once per deploy of the stage.'),
    });
    // The reader's code asset (its S3 key is the bundle's hash) is a property too, so a deploy
    // that changes how the key is read reads it again; CloudFormation calls a custom resource
    // only when a property changes.
    const code = (fn.fn.node.defaultChild as CfnFunction).code as CfnFunction.CodeProperty;
    const resource = new CustomResource(this, 'Resource', {
      serviceToken: fn.fn.functionArn,
      resourceType: 'Custom::TokenPublicKey',
      properties: { KeyId: props.signingKey.keyArn, ReaderCode: code.s3Key },
    });
    this.value = resource.getAttString('PublicKey');
  }
}
