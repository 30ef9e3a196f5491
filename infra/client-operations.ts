/**
 * `npm run generate`: writes the typed client's two generated modules from the OpenAPI document
 * the API serves (lib/openapi's `buildAll`):
 *   lib/client/schema.ts      its types, by openapi-typescript, from the client's view of the
 *                             document (below)
 *   lib/client/operations.ts  how to call each operation (method, path, auth, envelope, whether it
 *                             takes an Idempotency-Key): plain data
 * So the client carries no server code at run time and its types compile under any
 * moduleResolution (NodeNext too: no extensionless server import behind them). A test fails
 * while either is stale; another checks the types against the zod schemas' own.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import openapiTS, { astToString, NEVER, STRING, type OpenAPI3, type SchemaObject } from 'openapi-typescript';
import { buildAll } from '../lib/openapi/document';

type Json = Record<string, any>;

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch']);
const JSON_TYPE = 'application/json';
/** String enums longer than this are typed as strings: the IANA zone list (the zod schemas take a string and check it). */
const MAX_ENUM = 40;

/** Where the document's JSON Schema says more than openapi-typescript prints. */
function transform(schema: SchemaObject) {
  const { not, type, enum: values } = schema as Json;
  // `{ not: {} }` takes nothing: a field the API refuses (never, not unknown).
  if (not && Object.keys(not).length === 0) return NEVER;
  if (type === 'string' && (values?.length ?? 0) > MAX_ENUM) return STRING;
  return undefined;
}

/** A local `$ref` (`#/components/...`) followed to what it names; anything else as it is. */
function deref(document: Json, node: Json | undefined): Json | undefined {
  if (typeof node?.$ref !== 'string') return node;
  const target = (node.$ref as string)
    .replace(/^#\//, '')
    .split('/')
    .reduce<Json | undefined>((at, key) => at?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], document);
  return deref(document, target);
}

interface ClientOperation {
  operationId: string;
  method: string;
  path: string;
  operation: Json;
}

/** The operations the client calls: every one answering JSON (the docs pages are for browsers), in document order. */
function clientOperations(document: Json): ClientOperation[] {
  return Object.entries<Json>(document.paths).flatMap(([path, item]) =>
    Object.entries<Json>(item)
      .filter(
        ([method, operation]) =>
          METHODS.has(method) && successes(document, operation).some(([, answer]) => answer.content?.[JSON_TYPE]),
      )
      .map(([method, operation]) => ({
        operationId: operation.operationId as string,
        method: method.toUpperCase(),
        path,
        operation,
      })),
  );
}

const successes = (document: Json, operation: Json): Array<[string, Json]> =>
  Object.entries<Json>(operation.responses ?? {})
    .filter(([status]) => status.startsWith('2'))
    .map(([status, answer]) => [status, deref(document, answer)!]);

/** A body's schema per media type, without the whole-body examples (the fields keep theirs). */
const schemasOf = (content: Json | undefined) =>
  content && Object.fromEntries(Object.entries<Json>(content).map(([type, { schema }]) => [type, { schema }]));

/**
 * What the client's types need of the document: each operation's parameters, body and success
 * answer, and the schemas they name. Error answers all share one envelope (thrown as
 * `MedspaApiError`), so they become one `ErrorCode` schema: the union of their codes. Without
 * them, response headers and whole-body examples, the generated module is a quarter of what the
 * whole document gives.
 */
export function clientView(document: Json): Json {
  const errorCodes = new Set<string>();
  const paths: Json = {};
  for (const { method, path, operation } of clientOperations(document)) {
    for (const [status, answer] of Object.entries<Json>(operation.responses)) {
      if (status.startsWith('2')) continue;
      const envelope = deref(document, deref(document, answer)?.content?.[JSON_TYPE]?.schema);
      const code = deref(document, deref(document, envelope?.properties?.error)?.properties?.code);
      for (const value of code?.enum ?? ('const' in (code ?? {}) ? [code!.const] : [])) errorCodes.add(value);
    }
    const responses = Object.fromEntries(
      successes(document, operation).map(([status, { description, content }]) => [
        status,
        { description, content: schemasOf(content) },
      ]),
    );
    const body = deref(document, operation.requestBody);
    const requestBody = body && { ...body, content: schemasOf(body.content) };
    paths[path] = { ...paths[path], [method.toLowerCase()]: { ...operation, requestBody, responses } };
  }
  const ErrorCode = {
    type: 'string',
    enum: [...errorCodes].sort(),
    description: 'Every error code the API answers with (`error.code`).',
  };
  const { schemas, parameters } = document.components;
  return {
    openapi: document.openapi,
    info: document.info,
    paths,
    webhooks: document.webhooks,
    components: { schemas: { ...schemas, ErrorCode }, parameters },
  };
}

export function clientOperationsSource(document: Json = buildAll().document): string {
  const rows = clientOperations(document).map(({ operationId, method, path, operation }) => {
    const [, answer] = successes(document, operation).find(([, a]) => a.content?.[JSON_TYPE])!;
    const envelope = deref(document, answer.content[JSON_TYPE].schema);
    const open = (operation.security ?? document.security ?? []) as Json[];
    const headers = ((operation.parameters ?? []) as Json[]).map((parameter) => deref(document, parameter)!);
    const flags = [
      `auth: '${open.length === 0 || open.some((option) => Object.keys(option).length === 0) ? 'public' : open.some((option) => 'publishableKey' in option) ? 'publishable' : 'token'}'`,
      ...(envelope?.properties?.success ? [] : ['bare: true']),
      ...(headers.some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key')
        ? ['idempotent: true']
        : []),
    ];
    return `  ${operationId}: { method: '${method}', path: '${path}', ${flags.join(', ')} },`;
  });
  return [
    '// Generated by `npm run generate` from the OpenAPI document: do not edit.',
    '/** How to call each operation: plain data, so the client carries no server code. */',
    'export const operations = {',
    ...rows,
    '} as const;',
    '',
  ].join('\n');
}

export async function clientTypesSource(document: Json = buildAll().document): Promise<string> {
  const ast = await openapiTS(clientView(document) as OpenAPI3, {
    rootTypes: true,
    rootTypesNoSchemaPrefix: true,
    rootTypesKeepCasing: true,
    silent: true,
    transform,
  });
  return [
    '// Generated by `npm run generate` (openapi-typescript) from the OpenAPI document: do not edit.',
    '/* eslint-disable */',
    '',
    astToString(ast),
  ].join('\n');
}

if (process.argv[1] === import.meta.filename) {
  const { document } = buildAll();
  const client = join(import.meta.dirname, '..', 'lib', 'client');
  writeFileSync(join(client, 'operations.ts'), clientOperationsSource(document));
  writeFileSync(join(client, 'schema.ts'), await clientTypesSource(document));
  console.log('lib/client/operations.ts and lib/client/schema.ts now match the OpenAPI document');
}
