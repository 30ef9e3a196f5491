import type { Construct } from 'constructs';
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { DataStore } from '../constructs/data-store';
import { stageSettings, type StageSettings } from './stage-settings';

export interface StatefulStackProps extends StackProps {
  stage: string;
}

/**
 * What outlives a deploy: the table (with its stream), the KMS keys, the event bus and the
 * service secrets. Deployed first and rarely changed; the stateless stack takes these by
 * reference, so code can be redeployed, or torn down, without touching data.
 */
export class StatefulStack extends Stack {
  readonly settings: StageSettings;
  readonly data: DataStore;

  constructor(scope: Construct, id: string, props: StatefulStackProps) {
    const settings = stageSettings(props.stage); // validates the stage before it becomes part of a stack name
    super(scope, id, {
      description: `medspa-api (${props.stage}): table, keys, event bus, secrets, photos bucket`,
      ...props,
    });
    this.settings = settings;
    this.data = new DataStore(this, 'Data', settings);

    new CfnOutput(this, 'TableName', { value: this.data.table.tableName });
    new CfnOutput(this, 'EventBusName', { value: this.data.bus.eventBusName });
    new CfnOutput(this, 'SigningKeyArn', { value: this.data.signingKey.keyArn });
    new CfnOutput(this, 'PhotosBucketName', { value: this.data.photos.bucketName });
  }
}
