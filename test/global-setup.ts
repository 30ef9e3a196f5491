process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
import type { TestProject } from 'vitest/node';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SHORT_LIVED_JVM, startDynamoLocal, type DynamoLocal } from '../infra/local/dynamo';
import { compactDecisions } from '../infra/local/aws/iam';
import { localAwsModelFile } from '../infra/local/aws/model';
import { printUnusedGrants } from '../infra/local/aws/usage-report';

declare module 'vitest' {
  export interface ProvidedContext {
    ddbEndpoint: string;
    /** Where each test file leaves the IAM grants its calls used (merged into the report at teardown). */
    iamUsageDir: string;
    /** The synthesized stage's model (infra/local/aws/model.ts), made or found once for the run. */
    awsModelFile: string;
  }
}

interface Shared {
  dynamo: DynamoLocal;
  usageDir: string;
  modelFile: string;
  /** Projects set up and not yet torn down. */
  users: number;
}

/**
 * One in-memory DynamoDB Local per run, however many projects use it: vitest runs each project's
 * global setup (integration, e2e, build), so the first starts it and the last teardown stops it
 * and prints the IAM usage report of every project's files together.
 */
const SHARED = Symbol.for('medspa-api.test-global-setup');
const state = globalThis as unknown as { [SHARED]?: Promise<Shared> };

export async function setup(project: TestProject) {
  state[SHARED] ??= (async () => {
    // The synthesized stage (cached by source hash), once for every worker.
    const [dynamo, modelFile] = await Promise.all([
      startDynamoLocal({ jvmArgs: SHORT_LIVED_JVM }),
      localAwsModelFile(),
    ]);
    return { dynamo, modelFile, usageDir: mkdtempSync(join(tmpdir(), 'medspa-iam-usage-')), users: 0 };
  })();
  const shared = await state[SHARED];
  shared.users += 1;
  project.provide('ddbEndpoint', shared.dynamo.endpoint);
  project.provide('iamUsageDir', shared.usageDir);
  project.provide('awsModelFile', shared.modelFile);
}

export async function teardown() {
  const shared = await state[SHARED];
  if (!shared) return;
  shared.users -= 1;
  if (shared.users > 0) return;
  state[SHARED] = undefined;
  await shared.dynamo.stop();
  await printUnusedGrants(shared.usageDir);
  rmSync(shared.usageDir, { recursive: true, force: true });
  compactDecisions();
}
