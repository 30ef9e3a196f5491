import { createHash } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { LOCAL_ACCOUNT, LOCAL_REGION, loadAssembly, type ResolvedResource } from './template';

/**
 * What the local runtime takes from the deployed stage (`cdk synth` of the dev stage, without
 * bundling): each function's role and policies, the ARNs of what they touch, and the pipeline's
 * wiring (event source mappings, rules, schedules, queues). Cached by a hash of the sources that
 * shape the templates, so a run pays for a synth (about 3 s) only after a change.
 */

type Json = any;

export interface FunctionModel {
  /** The operation (route row) or worker (workers table) name. */
  name: string;
  kind: 'route' | 'worker';
  roleName: string;
  roleArn: string;
  functionArn: string;
  /** Identity policies of the role, resolved. */
  policies: Array<{ name: string; document: Json }>;
  timeoutSeconds: number;
  /** Names of the env vars the stage sets for it (values a local stand-in supplies are checked by name). */
  environment: string[];
}

export interface QueueModel {
  /** Construct id, e.g. `DeliveriesQueue`, `DeliveriesDlq`. */
  id: string;
  arn: string;
  properties: Json;
}

export interface SecretModel {
  /** Construct id, e.g. `CursorSecret`. */
  id: string;
  arn: string;
  /** Its customer-managed key. */
  keyArn?: string;
}

export interface LocalAwsModel {
  stage: string;
  account: string;
  region: string;
  table: { arn: string; streamArn: string; keyArn?: string };
  busArn: string;
  signingKeyArn: string;
  functions: Record<string, FunctionModel>;
  queues: QueueModel[];
  /** The service secrets (Secrets Manager), read by the functions given their ARN. */
  secrets: SecretModel[];
  /** The clinical photos' bucket and its customer-managed key (the local object store stands in for it). */
  photosBucket: { arn: string; keyArn?: string };
  /** AWS::Lambda::EventSourceMapping properties, with `function` naming the target. */
  eventSourceMappings: Array<{ function: string; properties: Json }>;
  /** AWS::Events::Rule properties (patterns and schedules), with `id` the construct id. */
  rules: Array<{ id: string; properties: Json }>;
}

const PROJECT_ROOT = join(import.meta.dirname, '..', '..', '..');
const STAGE = 'dev';
/** Sources whose change can change the templates (infra/local only runs them). */
const SOURCE_ROOTS = ['infra', 'lib', 'functions', 'package-lock.json', 'cdk.json'];
const CACHE_DIR = join(PROJECT_ROOT, 'node_modules', '.cache', 'medspa-api');

function filesUnder(path: string): string[] {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return [];
  if (stat.isFile()) return [path];
  return (
    readdirSync(path)
      .sort()
      // The local server's own code does not shape the templates; the model builder (here) does.
      .flatMap((name) =>
        relative(PROJECT_ROOT, join(path, name)) === join('infra', 'local')
          ? filesUnder(join(path, name, 'aws'))
          : filesUnder(join(path, name)),
      )
  );
}

export function sourceHash(): string {
  const hash = createHash('sha256');
  for (const file of SOURCE_ROOTS.flatMap((root) => filesUnder(join(PROJECT_ROOT, root)))) {
    hash.update(relative(PROJECT_ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * Synthesizes a stage (no bundling, no nag) into a temporary directory and reads every stack's
 * resources, resolved (the cost bench reads the prod stage's the same way).
 */
export async function synthesizedResources(stage: string): Promise<ResolvedResource[]> {
  const { App } = await import('aws-cdk-lib');
  const { defineStage } = await import('../../stage');
  const outdir = mkdtempSync(join(tmpdir(), 'medspa-synth-'));
  try {
    const app = new App({
      outdir,
      context: {
        'aws:cdk:bundling-stacks': [],
        'aws:cdk:enable-asset-metadata': true,
        'aws:cdk:enable-path-metadata': true,
        stage,
      },
    });
    defineStage(app, stage);
    app.synth();
    return loadAssembly(outdir).flatMap((stack) => stack.resources);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/** The dev stage's model. */
const synthesize = async (): Promise<LocalAwsModel> => modelOf(await synthesizedResources(STAGE));

/** The construct id a resource was made by (the path segment before `Resource`). */
const constructId = (resource: ResolvedResource) => {
  const parts = resource.path.split('/');
  return parts[parts.length - 1] === 'Resource' ? parts[parts.length - 2] : parts[parts.length - 1];
};

function modelOf(resources: ResolvedResource[]): LocalAwsModel {
  const ofType = (type: string) => resources.filter((resource) => resource.type === type);
  const one = (type: string, id: string) => {
    const found = ofType(type).filter((resource) => resource.path.includes(`/${id}/`));
    if (found.length !== 1) throw new Error(`expected one ${type} "${id}", found ${found.length}`);
    return found[0];
  };
  const table = one('AWS::DynamoDB::Table', 'Table');
  const policiesOfRole = (roleName: string) =>
    resources
      .filter(
        (policy) =>
          (policy.type === 'AWS::IAM::ManagedPolicy' || policy.type === 'AWS::IAM::Policy') &&
          (policy.properties.Roles ?? []).includes(roleName),
      )
      .map((policy) => ({ name: policy.path, document: policy.properties.PolicyDocument }));

  const functions: Record<string, FunctionModel> = {};
  const functionNameByArn = new Map<string, string>();
  for (const fn of ofType('AWS::Lambda::Function')) {
    const description = String(fn.properties.Description ?? '');
    const name = /^(\w+): /.exec(description)?.[1];
    if (!name) continue; // CDK's own helper functions (log retention, custom resources)
    const roleArn = String(fn.properties.Role);
    const roleName = roleArn.split(':role/')[1];
    const functionArn = fn.arn;
    functionNameByArn.set(functionArn, name);
    functions[name] = {
      name,
      kind: fn.path.includes('/Workers/') ? 'worker' : 'route',
      roleName,
      roleArn,
      functionArn,
      policies: policiesOfRole(roleName),
      timeoutSeconds: Number(fn.properties.Timeout ?? 3),
      environment: Object.keys(fn.properties.Environment?.Variables ?? {}).sort(),
    };
  }

  const functionFor = (reference: string) => {
    // A mapping names its function by name (Ref) or ARN.
    const name = [...functionNameByArn.entries()].find(
      ([arn]) => arn === reference || arn.endsWith(`:function:${reference}`),
    )?.[1];
    if (!name) throw new Error(`no function for ${reference}`);
    return name;
  };

  return {
    stage: STAGE,
    account: LOCAL_ACCOUNT,
    region: LOCAL_REGION,
    // The table's own key (its SSE specification names it), resolved like every other reference.
    table: {
      arn: table.arn,
      streamArn: `${table.arn}/stream/local`,
      keyArn: table.properties.SSESpecification?.KMSMasterKeyId,
    },
    busArn: one('AWS::Events::EventBus', 'Bus').arn,
    signingKeyArn: one('AWS::KMS::Key', 'TokenSigningKey').arn,
    photosBucket: photosBucketOf(one('AWS::S3::Bucket', 'Photos')),
    functions,
    queues: ofType('AWS::SQS::Queue').map((queue) => ({
      id: constructId(queue),
      arn: queue.arn,
      url: queue.ref,
      properties: queue.properties,
    })),
    secrets: ofType('AWS::SecretsManager::Secret').map((secret) => ({
      id: constructId(secret),
      arn: secret.arn,
      keyArn: secret.properties.KmsKeyId,
    })),
    eventSourceMappings: ofType('AWS::Lambda::EventSourceMapping').map((mapping) => ({
      function: functionFor(String(mapping.properties.FunctionName)),
      properties: mapping.properties,
    })),
    rules: ofType('AWS::Events::Rule').map((rule) => ({ id: constructId(rule), properties: rule.properties })),
  };
}

/** The bucket's ARN and the key of its default encryption. */
const photosBucketOf = (bucket: ResolvedResource) => ({
  arn: bucket.arn,
  keyArn: bucket.properties.BucketEncryption?.ServerSideEncryptionConfiguration?.[0]?.ServerSideEncryptionByDefault
    ?.KMSMasterKeyID as string | undefined,
});

let loaded: Promise<LocalAwsModel> | undefined;

/**
 * Set by the test run's global setup to the model it made (or found) for the current sources:
 * each test file (a process of its own) then reads it instead of hashing every source again.
 */
export const MODEL_FILE_VARIABLE = 'LOCAL_AWS_MODEL_FILE';

/** The cached model file of the current sources, synthesized and written first if missing. */
export async function localAwsModelFile(): Promise<string> {
  const file = join(CACHE_DIR, `aws-model-${sourceHash()}.json`);
  if (!statSync(file, { throwIfNoEntry: false })) {
    const model = await synthesize();
    mkdirSync(CACHE_DIR, { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(model));
    renameSync(temporary, file);
  }
  return file;
}

/** The model of the current sources: from the cache, or synthesized and cached. */
export function localAwsModel(): Promise<LocalAwsModel> {
  loaded ??= (async () => {
    const given = process.env[MODEL_FILE_VARIABLE];
    return JSON.parse(readFileSync(given || (await localAwsModelFile()), 'utf8')) as LocalAwsModel;
  })();
  return loaded;
}
