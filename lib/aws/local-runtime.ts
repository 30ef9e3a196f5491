/**
 * The seam between the product and the local runtime (infra/local/aws). On AWS nothing is
 * installed and every function here is a no-op; locally, `npm start` and the tests install the
 * checks that make each call pass the synthesized role of the function making it, as AWS would.
 * The checker itself (an IAM policy simulator) never ships in a Lambda bundle.
 */

/** What a local stand-in does in place of an AWS service, by the resource's role in the stage. */
export type StandInCall =
  | { action: 'kms:Sign'; resource: 'signingKey' }
  | { action: 'events:PutEvents'; resource: 'bus' }
  | { action: 'sqs:SendMessage'; resource: `queue:${string}` }
  | { action: 'secretsmanager:GetSecretValue'; resource: `secret:${string}` };

/** An SDK client's middleware stack, as much of it as the runtime needs. */
export interface InstrumentableClient {
  middlewareStack: { add(middleware: any, options: any): void };
}

export interface LocalRuntime {
  /** Adds the runtime's checks to an SDK client of the named service. */
  instrument(client: InstrumentableClient, service: 'dynamodb' | 'dynamodb-streams'): void;
  /** Checks a call a stand-in makes for the current function (key file for KMS, in-process queue for SQS...). */
  authorize(call: StandInCall): Promise<void>;
  /** Fails unless the stage sets this env var for the current function (a value a local stand-in supplies). */
  requireEnvironment(variable: string): void;
  /** Runs `work` as the named function of the stage (its role applies to every call made within). */
  runAs<T>(functionName: string, work: () => T): T;
  /** The invocation running now (one object per runAs), or undefined outside any function. */
  invocation(): object | undefined;
  /** The name of the function running now, or undefined outside any function. */
  functionName(): string | undefined;
}

let runtime: LocalRuntime | undefined;

export function installLocalRuntime(installed: LocalRuntime | undefined): void {
  runtime = installed;
}

export function instrumentClient<T extends InstrumentableClient>(
  client: T,
  service: 'dynamodb' | 'dynamodb-streams',
): T {
  runtime?.instrument(client, service);
  return client;
}

export const authorizeStandIn = async (call: StandInCall): Promise<void> => runtime?.authorize(call);

/** Locally: the current function must be given `variable` by the stage, as the value a stand-in supplies would be on AWS. */
export const requireStageEnvironment = (variable: string): void => runtime?.requireEnvironment(variable);

export const runAsFunction = <T>(functionName: string, work: () => T): T =>
  runtime ? runtime.runAs(functionName, work) : work();

/**
 * The invocation the current code runs in: on AWS a container serves one at a time (undefined,
 * one for all); locally many share a process, and work that AWS would keep within one invocation
 * (reads merged in a tick) keys on this.
 */
export const currentInvocation = (): object | undefined => runtime?.invocation();

/**
 * The function the current code runs as: on AWS undefined (a container is one function); locally
 * the function `runAsFunction` named, so state AWS keeps per container (a secret read) is kept per function.
 */
export const currentFunction = (): string | undefined => runtime?.functionName();

/**
 * The local object store's credentials of a function: the access key names the function, so the
 * store checks every S3 request, a pre-signed URL's included, against the role of the function
 * that signed it, when the request arrives (as S3 authorizes a pre-signed URL with its signer's
 * permissions at use). Outside any function: the operator's key, not checked.
 */
export const LOCAL_S3_SECRET = 'local-object-store';
const FUNCTION_KEY_PREFIX = 'FN.';
export const localS3AccessKey = (functionName: string | undefined) =>
  functionName ? `${FUNCTION_KEY_PREFIX}${functionName}` : 'OPERATOR';
export const functionOfLocalS3Key = (accessKeyId: string): string | undefined =>
  accessKeyId.startsWith(FUNCTION_KEY_PREFIX) ? accessKeyId.slice(FUNCTION_KEY_PREFIX.length) : undefined;
