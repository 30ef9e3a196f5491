import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The data layer's two rules that the dependency rule (`.dependency-cruiser.cjs`
 * `only-db-touches-items`, test/build/layers.test.ts) cannot see, read from the source:
 * - one query style: only lib/db/query.ts writes a key condition or sends a QueryCommand; every
 *   other Query is a `KeyQuery` description given to its helpers;
 * - no cast of a read item in lib/db: an item leaves through its kind's codec (or a projection's),
 *   never `item as SomeType` (docs/decisions/0020-codecs-decode.md).
 */

const QUERY_MODULE = 'lib/db/query.ts';

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });

const parse = (path: string, text: string) => ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);

function walk(node: ts.Node, visit: (node: ts.Node) => void): void {
  visit(node);
  node.forEachChild((child) => walk(child, visit));
}

const lineOf = (file: ts.SourceFile, node: ts.Node) => file.getLineAndCharacterOfPosition(node.getStart()).line + 1;

/** Mentions of a hand-written Query: a key condition (by any spelling) or the SDK's Query command. */
function handWrittenQueries(path: string, text: string): string[] {
  const file = parse(path, text);
  const found: string[] = [];
  walk(file, (node) => {
    const name =
      ts.isIdentifier(node) || ts.isStringLiteralLike(node) || ts.isPrivateIdentifier(node) ? node.text : undefined;
    if (name === 'KeyConditionExpression' || name === 'KeyConditions' || name === 'QueryCommand')
      found.push(`${path}:${lineOf(file, node)} ${name}`);
  });
  return found;
}

/**
 * What reads hand back raw: the SDK's answers (`Items`, `Item`, `Attributes`, `Responses`),
 * items by their usual names, the reads' own results (`readItem(...)`, `queryAll(...)`), and a
 * decoded record cast on (`fromItem(...) as`).
 */
const READ_ITEM = /\b(Items|Item|Attributes|Responses|item|items|fromItem|query\w*|readItems?)\b/;
/** Casts that claim nothing about a kind: `as const`, the raw item's own type, and its wire format (before unmarshalling). */
const CLAIMS_NOTHING = new Set(['const', 'unknown', 'Record<string, unknown>', 'Parameters<typeof unmarshall>[0]']);
/** Where an item becomes a record: the codec's own `keyOf` reads the key fields it has just checked. */
const DECODING_MODULE = 'lib/db/codecs.ts';

/** `<read item> as <Type>` casts (and `<Type>item` assertions). */
function itemCasts(path: string, text: string): string[] {
  const file = parse(path, text);
  const found: string[] = [];
  walk(file, (node) => {
    if (!ts.isAsExpression(node) && !ts.isTypeAssertionExpression(node)) return;
    const type = node.type.getText(file).replace(/\s+/g, ' ');
    const operand = node.expression.getText(file);
    if (CLAIMS_NOTHING.has(type) || !READ_ITEM.test(operand)) return;
    found.push(`${path}:${lineOf(file, node)} ${operand} as ${type}`);
  });
  return found;
}

const repoFiles = (dir: string) =>
  sourceFiles(dir).map((path) => ({ path: relative(process.cwd(), path), text: readFileSync(path, 'utf8') }));

describe('one query style', () => {
  it('no module of lib but lib/db/query.ts writes a key condition or uses QueryCommand', () => {
    const found = repoFiles('lib')
      .filter((file) => file.path !== QUERY_MODULE)
      .flatMap((file) => handWrittenQueries(file.path, file.text));
    expect(found).toEqual([]);
  });

  it('lib/db/query.ts is where they are (the check still reads them)', () => {
    expect(handWrittenQueries(QUERY_MODULE, readFileSync(QUERY_MODULE, 'utf8'))).not.toEqual([]);
  });

  it('catches each spelling of a hand-written Query', () => {
    const text = [
      "import { QueryCommand } from '@aws-sdk/lib-dynamodb';",
      "const input = { KeyConditionExpression: 'pk = :pk' };",
      "const quoted = { 'KeyConditionExpression': 'pk = :pk' };",
      'const legacy = { KeyConditions: {} };',
      'export const send = () => new QueryCommand({ TableName: "t", ...input, ...quoted, ...legacy });',
    ].join('\n');
    expect(handWrittenQueries('lib/db/x.ts', text)).toEqual([
      'lib/db/x.ts:1 QueryCommand',
      'lib/db/x.ts:2 KeyConditionExpression',
      'lib/db/x.ts:3 KeyConditionExpression',
      'lib/db/x.ts:4 KeyConditions',
      'lib/db/x.ts:5 QueryCommand',
    ]);
  });
});

describe('items leave lib/db decoded, never cast', () => {
  it('lib/db casts no read item to a type', () => {
    const found = repoFiles('lib/db')
      .filter((file) => file.path !== DECODING_MODULE)
      .flatMap((file) => itemCasts(file.path, file.text));
    expect(found).toEqual([]);
  });

  it('catches a cast of a read item, and lets casts that claim nothing pass', () => {
    const text = [
      'const a = Items[0].client_id as string;',
      'const b = (Attributes?.first_failure_at as string | undefined) ?? null;',
      'const c = items as { id: string }[];',
      'const d = COLLECTIONS[type].fromItem(item) as RecordOf<K>;',
      'const e = (await queryAll(q)) as unknown as Key[];',
      'const f = <Key>item;',
      "const ok1 = ['a'] as const;",
      'const ok2 = item as Record<string, unknown>;',
      'const ok3 = changes.sku as string | undefined;',
    ].join('\n');
    expect(itemCasts('lib/db/x.ts', text)).toEqual([
      'lib/db/x.ts:1 Items[0].client_id as string',
      'lib/db/x.ts:2 Attributes?.first_failure_at as string | undefined',
      'lib/db/x.ts:3 items as { id: string }[]',
      'lib/db/x.ts:4 COLLECTIONS[type].fromItem(item) as RecordOf<K>',
      'lib/db/x.ts:5 (await queryAll(q)) as unknown as Key[]',
      'lib/db/x.ts:6 item as Key',
    ]);
  });
});
