process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
import type { TestProject } from 'vitest/node';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SHORT_LIVED_JVM, startDynamoLocal, type DynamoLocal } from '../infra/local/dynamo';
import { compactDecisions } from '../infra/local/aws/iam';
import { localAwsModelFile, MODEL_FILE_VARIABLE } from '../infra/local/aws/model';
import { installLocalAws, writeUsedGrants } from '../infra/local/aws/runtime';
import { startLocalObjectStore, type LocalObjectStore } from '../infra/local/object-store';
import { printUnusedGrants } from '../infra/local/aws/usage-report';

declare module 'vitest' {
  export interface ProvidedContext {
    /** One DynamoDB Local per worker slot (VITEST_POOL_ID 1..n picks the n-th). */
    ddbEndpoints: string[];
    /** Where each test file leaves the IAM grants its calls used (merged into the report at teardown). */
    iamUsageDir: string;
    /** The synthesized stage's model (infra/local/aws/model.ts), made or found once for the run. */
    awsModelFile: string;
    /** The local object store (photos) and its bucket. */
    s3Endpoint: string;
    photosBucket: string;
  }
}

/** As many as vitest runs files at once (vitest.config.ts maxWorkers). */
const DYNAMO_INSTANCES = 2;

interface Shared {
  dynamos: DynamoLocal[];
  objects: LocalObjectStore;
  objectsDir: string;
  usageDir: string;
  modelFile: string;
  /** Projects set up and not yet torn down. */
  users: number;
}

/**
 * One set of in-memory DynamoDB Locals (one per worker slot) per run, however many projects use
 * them: vitest runs each project's global setup (integration, e2e, build), so the first starts
 * them and the last teardown stops them and prints the IAM usage report of every project's files.
 */
const SHARED = Symbol.for('medspa-api.test-global-setup');
const state = globalThis as unknown as { [SHARED]?: Promise<Shared> };

export async function setup(project: TestProject) {
  state[SHARED] ??= (async () => {
    // The synthesized stage (cached by source hash), once for every worker.
    // One DynamoDB Local per worker slot: each serialises its writes (SQLite underneath), so two
    // workers on one instance wait on each other while the cores idle.
    const [dynamos, modelFile] = await Promise.all([
      Promise.all(Array.from({ length: DYNAMO_INSTANCES }, () => startDynamoLocal({ jvmArgs: SHORT_LIVED_JVM }))),
      localAwsModelFile(),
    ]);
    // The object store runs here, once for the run: it checks each request against the role of the
    // function that signed it, so this process enforces the synthesized IAM too (its grants join the report).
    process.env[MODEL_FILE_VARIABLE] = modelFile;
    await installLocalAws();
    const objectsDir = mkdtempSync(join(tmpdir(), 'medspa-s3-'));
    const objects = await startLocalObjectStore({ directory: objectsDir });
    return {
      dynamos,
      objects,
      objectsDir,
      modelFile,
      usageDir: mkdtempSync(join(tmpdir(), 'medspa-iam-usage-')),
      users: 0,
    };
  })();
  const shared = await state[SHARED];
  shared.users += 1;
  project.provide(
    'ddbEndpoints',
    shared.dynamos.map((dynamo) => dynamo.endpoint),
  );
  project.provide('iamUsageDir', shared.usageDir);
  project.provide('awsModelFile', shared.modelFile);
  project.provide('s3Endpoint', shared.objects.endpoint);
  project.provide('photosBucket', shared.objects.bucket);
}

export async function teardown() {
  const shared = await state[SHARED];
  if (!shared) return;
  shared.users -= 1;
  if (shared.users > 0) return;
  state[SHARED] = undefined;
  await Promise.all([...shared.dynamos.map((dynamo) => dynamo.stop()), shared.objects.stop()]);
  rmSync(shared.objectsDir, { recursive: true, force: true });
  writeUsedGrants(shared.usageDir);
  await printUnusedGrants(shared.usageDir);
  rmSync(shared.usageDir, { recursive: true, force: true });
  compactDecisions();
}
