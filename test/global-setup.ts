process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
import type { TestProject } from 'vitest/node';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDynamoLocal, type DynamoLocal } from '../infra/local/dynamo';
import { localAwsModel } from '../infra/local/aws/model';
import { printUnusedGrants } from '../infra/local/aws/usage-report';

declare module 'vitest' {
  export interface ProvidedContext {
    ddbEndpoint: string;
    /** Where each test file leaves the IAM grants its calls used (merged into the report at teardown). */
    iamUsageDir: string;
  }
}

let dynamo: DynamoLocal | undefined;
let usageDir: string | undefined;

/** One in-memory DynamoDB Local per test run; each test file gets its own table. */
export async function setup(project: TestProject) {
  // The synthesized stage (cached by source hash), once for every worker.
  const [local] = await Promise.all([startDynamoLocal(), localAwsModel()]);
  dynamo = local;
  usageDir = mkdtempSync(join(tmpdir(), 'medspa-iam-usage-'));
  project.provide('ddbEndpoint', dynamo.endpoint);
  project.provide('iamUsageDir', usageDir);
}

export async function teardown() {
  await dynamo?.stop();
  if (usageDir) {
    await printUnusedGrants(usageDir);
    rmSync(usageDir, { recursive: true, force: true });
  }
}
