process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
import type { TestProject } from 'vitest/node';
import { startDynamoLocal, type DynamoLocal } from '../infra/local/dynamo';

declare module 'vitest' {
  export interface ProvidedContext {
    ddbEndpoint: string;
  }
}

let dynamo: DynamoLocal | undefined;

/** One in-memory DynamoDB Local per test run; each test file gets its own table. */
export async function setup(project: TestProject) {
  dynamo = await startDynamoLocal();
  project.provide('ddbEndpoint', dynamo.endpoint);
}

export async function teardown() {
  await dynamo?.stop();
}
