import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import {
  installLocalRuntime,
  type InstrumentableClient,
  type LocalRuntime,
  type StandInCall,
} from '../../../lib/aws/local-runtime';
import { pascal } from '../../stacks/stage-settings';
import { dynamoDbRequests, dynamoDbStreamsRequests, type IamRequest } from './dynamodb-requests';
import { accessDeniedError, accessDeniedMessage, evaluate, usedBy } from './iam';
import { localAwsModel, type FunctionModel, type LocalAwsModel } from './model';

/**
 * The local runtime's AWS: every call a function makes, through an SDK client or a local stand-in,
 * is checked against that function's synthesized role before it goes anywhere, and a denied call
 * fails as AWS fails it (AccessDeniedException, AWS's message). Calls made outside any function
 * (test set-up, the seed, the admin command) are the operator's and are not checked.
 */

/** The function an invocation runs as; one object per invocation, so reads merge within one alone (lib/db/key-reads.ts). */
const identity = new AsyncLocalStorage<{ name: string }>();
/** Per role: `<statement>|<action>` of every grant a call used. */
const used = new Map<string, Set<string>>();
let model: LocalAwsModel | undefined;

/** `LOCAL_IAM=off` turns enforcement off (it is on by default in `npm start` and `npm test`). */
export const localIamEnabled = () => (process.env.LOCAL_IAM ?? 'on') !== 'off';

function functionNamed(name: string): FunctionModel {
  const fn = model?.functions[name];
  if (!fn) throw new Error(`The deployed stage has no function "${name}"`);
  return fn;
}

/** Checks the requests for the current function; the first one its role denies comes back. */
async function firstDenied(requests: IamRequest[]): Promise<{ fn: FunctionModel; request: IamRequest } | undefined> {
  const name = identity.getStore()?.name;
  if (!name || !model) return undefined;
  const fn = functionNamed(name);
  for (const request of requests) {
    const verdict = await evaluate(fn, request, model.account);
    if (!verdict.allowed) return { fn, request };
    let grants = used.get(fn.roleName);
    if (!grants) used.set(fn.roleName, (grants = new Set()));
    for (const grant of usedBy(request, verdict.grants)) grants.add(grant);
  }
  return undefined;
}

/** The HTTP answer AWS's JSON protocol gives a denied call: the SDK's own deserializer turns it into its error. */
const deniedResponse = (message: string) => ({
  statusCode: 400,
  reason: 'Bad Request',
  headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': randomUUID() },
  body: Readable.from([
    Buffer.from(JSON.stringify({ __type: 'com.amazon.coral.service#AccessDeniedException', Message: message })),
  ]),
});

function instrument(client: InstrumentableClient, service: 'dynamodb' | 'dynamodb-streams') {
  const requestsOf = service === 'dynamodb' ? dynamoDbRequests : dynamoDbStreamsRequests;
  client.middlewareStack.add(
    (next: (args: any) => Promise<any>, context: { commandName?: string }) => async (args: { input: unknown }) => {
      if (!model || !identity.getStore()) return next(args);
      const resources = { tableArn: model.table.arn, streamArn: model.table.streamArn };
      const requests = requestsOf(String(context.commandName), args.input, resources);
      // DynamoDB decrypts the table key with the caller's permissions (kms:ViaService), for its
      // stream's records too: an event source mapping reads them with its function's role.
      const readsData = service === 'dynamodb' || context.commandName === 'GetRecordsCommand';
      if (model.table.keyArn && readsData) {
        requests.push({
          action: 'kms:Decrypt',
          resource: model.table.keyArn,
          context: { 'kms:ViaService': `dynamodb.${model.region}.amazonaws.com` },
        });
      }
      const denied = await firstDenied(requests);
      if (denied) return { response: deniedResponse(accessDeniedMessage(denied.fn, denied.request)) };
      return next(args);
    },
    // Inside the deserializer: it reads the denial as it would read AWS's.
    { step: 'deserialize', priority: 'low', name: 'localIamEnforcement' },
  );
}

/**
 * The IAM requests of a stand-in's call: the action on the resource's ARN, and, where the resource
 * is under a customer-managed key, the key's use the service makes with the caller's rights
 * (kms:ViaService): SQS's kms:GenerateDataKey to send, Secrets Manager's kms:Decrypt to read.
 */
function standInRequests(call: StandInCall): IamRequest[] {
  if (!model) throw new Error('local AWS model not loaded');
  const only = (resource: string): IamRequest[] => [{ action: call.action, resource, context: {} }];
  const viaService = (action: string, keyArn: string | undefined, service: string): IamRequest[] =>
    keyArn
      ? [{ action, resource: keyArn, context: { 'kms:ViaService': `${service}.${model!.region}.amazonaws.com` } }]
      : [];
  if (call.resource === 'signingKey') return only(model.signingKeyArn);
  if (call.resource === 'bus') return only(model.busArn);
  if (call.resource.startsWith('secret:')) {
    const secretId = `${pascal(call.resource.slice('secret:'.length))}Secret`;
    const secret = model.secrets.find((candidate) => candidate.id === secretId);
    if (!secret) throw new Error(`The deployed stage has no secret ${secretId}`);
    return [...only(secret.arn), ...viaService('kms:Decrypt', secret.keyArn, 'secretsmanager')];
  }
  const queueId = `${pascal(call.resource.slice('queue:'.length))}Queue`;
  const queue = model.queues.find((candidate) => candidate.id === queueId);
  if (!queue) throw new Error(`The deployed stage has no queue ${queueId}`);
  return [...only(queue.arn), ...viaService('kms:GenerateDataKey', queue.properties.KmsMasterKeyId, 'sqs')];
}

const runtime: LocalRuntime = {
  instrument,
  async authorize(call) {
    const denied = await firstDenied(standInRequests(call));
    if (denied) throw accessDeniedError(accessDeniedMessage(denied.fn, denied.request));
  },
  requireEnvironment(variable) {
    const name = identity.getStore()?.name;
    if (!name || !model) return;
    const fn = functionNamed(name);
    // On AWS the function would run without the value: fail as loudly here.
    if (!fn.environment.includes(variable))
      throw new Error(`The deployed stage does not set ${variable} for function "${name}"`);
  },
  runAs(functionName, work) {
    if (model) functionNamed(functionName);
    return identity.run({ name: functionName }, work);
  },
  invocation: () => identity.getStore(),
  functionName: () => identity.getStore()?.name,
};

/**
 * Checks requests a local stand-in received on a function's behalf, as that function (the object
 * store knows the signer of each request by its access key): AWS's denial message, or undefined
 * when allowed (or when enforcement is off).
 */
export async function deniedAs(
  functionName: string,
  requests: (model: LocalAwsModel) => IamRequest[],
): Promise<string | undefined> {
  if (!model) return undefined;
  const current = model;
  functionNamed(functionName);
  return identity.run({ name: functionName }, async () => {
    const denied = await firstDenied(requests(current));
    return denied && accessDeniedMessage(denied.fn, denied.request);
  });
}

/**
 * Loads the stage's model (cached synth) and installs the checks, unless LOCAL_IAM=off. Install
 * before the first SDK client is made: clients are instrumented when created.
 */
export async function installLocalAws(): Promise<LocalAwsModel | undefined> {
  if (!localIamEnabled()) return undefined;
  model = await localAwsModel();
  installLocalRuntime(runtime);
  return model;
}

/** Grants used so far, per role (for the least-privilege report). */
export function usedGrants(): Record<string, string[]> {
  return Object.fromEntries([...used].map(([role, grants]) => [role, [...grants].sort()]));
}

/** Writes this process's used grants to `<dir>/<pid>-<random>.json` (merged by the report). */
export function writeUsedGrants(dir: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${process.pid}-${randomUUID().slice(0, 8)}.json`), JSON.stringify(usedGrants()));
}
