import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Reads a synthesized cloud assembly (top-level stacks and their nested stacks) with every
 * intrinsic resolved to the string CloudFormation would put there in one fixed account and region:
 * `Ref`, `Fn::GetAtt`, `Fn::Join`, `Fn::Sub`, `Fn::Select`, `Fn::Split`, `Fn::ImportValue` (from
 * the exporting stack's outputs) and nested stack parameters (from the parent's stack resource).
 * Physical names that CloudFormation would generate are made up the same way every time.
 */

export const LOCAL_ACCOUNT = '111122223333';
export const LOCAL_REGION = 'us-east-1';

type Json = any;

export interface ResolvedResource {
  logicalId: string;
  type: string;
  properties: Json;
  /** `aws:cdk:path` metadata: the construct path. */
  path: string;
  /** What `Ref` and `Fn::GetAtt [.., Arn]` give. */
  ref: string;
  arn: string;
}

export interface ResolvedStack {
  name: string;
  resources: ResolvedResource[];
}

interface StackContext {
  name: string;
  template: Json;
  parameters: Record<string, string>;
}

const PSEUDO: Record<string, string> = {
  'AWS::Region': LOCAL_REGION,
  'AWS::AccountId': LOCAL_ACCOUNT,
  'AWS::Partition': 'aws',
  'AWS::URLSuffix': 'amazonaws.com',
  'AWS::NoValue': '',
};

const NAME_PROPERTY: Record<string, string> = {
  'AWS::DynamoDB::Table': 'TableName',
  'AWS::Events::EventBus': 'Name',
  'AWS::SQS::Queue': 'QueueName',
  'AWS::Lambda::Function': 'FunctionName',
  'AWS::IAM::Role': 'RoleName',
  'AWS::IAM::ManagedPolicy': 'ManagedPolicyName',
  'AWS::Logs::LogGroup': 'LogGroupName',
  'AWS::SecretsManager::Secret': 'Name',
  'AWS::Events::Rule': 'Name',
  'AWS::S3::Bucket': 'BucketName',
};

const fakeId = (seed: string, length = 32) => createHash('sha256').update(seed).digest('hex').slice(0, length);
const fakeUuid = (seed: string) => fakeId(seed).replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

export function loadAssembly(outdir: string): ResolvedStack[] {
  const manifest = JSON.parse(readFileSync(join(outdir, 'manifest.json'), 'utf8')) as {
    artifacts: Record<string, { type: string; properties?: { templateFile?: string } }>;
  };
  const contexts: StackContext[] = [];
  const add = (name: string, file: string, parameters: Record<string, string>): StackContext => {
    const context = { name, template: JSON.parse(readFileSync(join(outdir, file), 'utf8')), parameters };
    contexts.push(context);
    return context;
  };
  const exportsByName = new Map<string, { stack: StackContext; value: Json }>();

  const resolver = (stack: StackContext) => {
    const physicalName = (logicalId: string): string => {
      const resource = stack.template.Resources?.[logicalId];
      const nameProperty = resource && NAME_PROPERTY[resource.Type];
      const given = nameProperty ? resource.Properties?.[nameProperty] : undefined;
      if (given !== undefined) return String(resolve(given));
      // CloudFormation's generated names: <stack>-<logical id> cut to fit, then a unique suffix.
      return `${`${stack.name}-${logicalId}`.slice(0, 50)}-${fakeId(stack.name + logicalId, 12).toUpperCase()}`;
    };
    const arnOf = (logicalId: string): string => {
      const type = stack.template.Resources?.[logicalId]?.Type as string;
      const name = physicalName(logicalId);
      const scope = `${LOCAL_REGION}:${LOCAL_ACCOUNT}`;
      switch (type) {
        case 'AWS::DynamoDB::Table':
          return `arn:aws:dynamodb:${scope}:table/${name}`;
        case 'AWS::KMS::Key':
          return `arn:aws:kms:${scope}:key/${fakeUuid(stack.name + logicalId)}`;
        case 'AWS::SQS::Queue':
          return `arn:aws:sqs:${scope}:${name}`;
        case 'AWS::Events::EventBus':
          return `arn:aws:events:${scope}:event-bus/${name}`;
        case 'AWS::Events::Rule':
          return `arn:aws:events:${scope}:rule/${name}`;
        case 'AWS::IAM::Role':
          return `arn:aws:iam::${LOCAL_ACCOUNT}:role/${name}`;
        case 'AWS::IAM::ManagedPolicy':
          return `arn:aws:iam::${LOCAL_ACCOUNT}:policy/${name}`;
        case 'AWS::Lambda::Function':
          return `arn:aws:lambda:${scope}:function:${name}`;
        case 'AWS::Logs::LogGroup':
          return `arn:aws:logs:${scope}:log-group:${name}:*`;
        case 'AWS::SecretsManager::Secret':
          return `arn:aws:secretsmanager:${scope}:secret:${name}-${fakeId(name, 6)}`;
        case 'AWS::SNS::Topic':
          return `arn:aws:sns:${scope}:${name}`;
        case 'AWS::S3::Bucket':
          return `arn:aws:s3:::${name.toLowerCase()}`;
        default:
          return `arn:aws:local:${scope}:${logicalId}`;
      }
    };
    const ref = (name: string): string => {
      if (name in PSEUDO) return PSEUDO[name];
      if (name === 'AWS::StackName') return stack.name;
      if (name in stack.parameters) return stack.parameters[name];
      const parameter = stack.template.Parameters?.[name];
      if (parameter) return String(parameter.Default ?? '');
      const type = stack.template.Resources?.[name]?.Type as string | undefined;
      if (!type) throw new Error(`${stack.name}: Ref to unknown ${name}`);
      switch (type) {
        case 'AWS::KMS::Key':
          return fakeUuid(stack.name + name);
        case 'AWS::SQS::Queue':
          return `https://sqs.${LOCAL_REGION}.amazonaws.com/${LOCAL_ACCOUNT}/${physicalName(name)}`;
        case 'AWS::SecretsManager::Secret':
        case 'AWS::SNS::Topic':
        case 'AWS::IAM::ManagedPolicy':
          return arnOf(name);
        case 'AWS::ApiGatewayV2::Api':
          return fakeId(name, 10);
        default:
          return physicalName(name);
      }
    };
    const getAtt = (logicalId: string, attribute: string): string => {
      switch (attribute) {
        case 'Arn':
          return arnOf(logicalId);
        case 'StreamArn':
          return `${arnOf(logicalId)}/stream/local`;
        case 'QueueName':
        case 'Name':
          return physicalName(logicalId);
        case 'QueueUrl':
          return ref(logicalId);
        case 'KeyId':
          return ref(logicalId);
        case 'ApiEndpoint':
          return `https://${ref(logicalId)}.execute-api.${LOCAL_REGION}.amazonaws.com`;
        default:
          if (attribute.startsWith('Outputs.')) return nestedOutput(logicalId, attribute.slice('Outputs.'.length));
          return `${physicalName(logicalId)}.${attribute}`;
      }
    };
    const nestedOutput = (logicalId: string, output: string): string => {
      const child = nested.get(`${stack.name}/${logicalId}`);
      if (!child) throw new Error(`${stack.name}: no nested stack ${logicalId}`);
      return String(resolver(child)(child.template.Outputs[output].Value));
    };
    const sub = (text: string, variables: Record<string, Json> = {}) =>
      text.replace(/\$\{([^}]+)\}/g, (_, name: string) => {
        if (name in variables) return String(resolve(variables[name]));
        const [logicalId, attribute] = name.split('.');
        return attribute ? getAtt(logicalId, attribute) : ref(logicalId);
      });
    function resolve(value: Json): Json {
      if (Array.isArray(value)) return value.map(resolve);
      if (!value || typeof value !== 'object') return value;
      const keys = Object.keys(value);
      if (keys.length === 1) {
        const [key] = keys;
        const argument = value[key];
        switch (key) {
          case 'Ref':
            return ref(argument);
          case 'Fn::GetAtt': {
            const [logicalId, attribute] = Array.isArray(argument) ? argument : String(argument).split(/\.(.*)/);
            return getAtt(logicalId, attribute);
          }
          case 'Fn::Join':
            return (resolve(argument[1]) as Json[]).join(argument[0]);
          case 'Fn::Sub':
            return Array.isArray(argument) ? sub(argument[0], argument[1]) : sub(argument);
          case 'Fn::Select':
            return (resolve(argument[1]) as Json[])[Number(resolve(argument[0]))];
          case 'Fn::Split':
            return String(resolve(argument[1])).split(argument[0]);
          case 'Fn::ImportValue': {
            const name = String(resolve(argument));
            const exported = exportsByName.get(name);
            if (!exported) throw new Error(`${stack.name}: no stack exports ${name}`);
            return resolver(exported.stack)(exported.value);
          }
          case 'Fn::If':
          case 'Fn::Equals':
          case 'Fn::GetAZs':
            throw new Error(`${stack.name}: ${key} is not supported by the local resolver`);
        }
      }
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v)]));
    }
    return Object.assign(resolve, { ref, arnOf });
  };

  const nested = new Map<string, StackContext>();
  const addNested = (parent: StackContext) => {
    for (const [logicalId, resource] of Object.entries<Json>(parent.template.Resources ?? {})) {
      if (resource.Type !== 'AWS::CloudFormation::Stack') continue;
      const file = resource.Metadata?.['aws:asset:path'];
      if (!file) throw new Error(`${parent.name}: nested stack ${logicalId} has no template file`);
      const parameters = Object.fromEntries(
        Object.entries<Json>(resource.Properties?.Parameters ?? {}).map(([name, value]) => [
          name,
          String(resolver(parent)(value)),
        ]),
      );
      const child = add(`${parent.name}-${logicalId}`, file, parameters);
      nested.set(`${parent.name}/${logicalId}`, child);
      addNested(child);
    }
  };

  const topLevel = Object.entries(manifest.artifacts)
    .filter(([, artifact]) => artifact.type === 'aws:cloudformation:stack')
    .map(([name, artifact]) => add(name, artifact.properties!.templateFile!, {}));
  for (const stack of topLevel) {
    for (const output of Object.values<Json>(stack.template.Outputs ?? {})) {
      if (output.Export?.Name)
        exportsByName.set(String(resolver(stack)(output.Export.Name)), { stack, value: output.Value });
    }
  }
  topLevel.forEach(addNested);

  return contexts.map((stack) => {
    const resolve = resolver(stack);
    return {
      name: stack.name,
      resources: Object.entries<Json>(stack.template.Resources ?? {})
        .filter(
          ([, resource]) => resource.Type !== 'AWS::CloudFormation::Stack' && resource.Type !== 'AWS::CDK::Metadata',
        )
        .map(([logicalId, resource]) => ({
          logicalId,
          type: resource.Type,
          properties: resolve(resource.Properties ?? {}),
          path: String(resource.Metadata?.['aws:cdk:path'] ?? logicalId),
          ref: String(resolve.ref(logicalId)),
          arn: resolve.arnOf(logicalId),
        })),
    };
  });
}
