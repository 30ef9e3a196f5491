import type { operations as Generated } from './schema.js';
import type { operations as Table } from './operations.js';

/**
 * Each operation's input and output, read off the types openapi-typescript generates from the
 * OpenAPI document (./schema.ts): `input` as the API names its parts (`params`, `query`, `body`),
 * `output` as the envelope's `data` (or the whole answer of a bare route), `item` one element
 * of a list.
 */
export type * from './schema.js';

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type JsonOf<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;
/** One part of an input, absent when the operation has none (`?: never`), optional when the document says so. */
type Part<Name extends string, T, Required extends boolean> = [NonNullable<T>] extends [never]
  ? {}
  : Required extends true
    ? { [K in Name]: T }
    : { [K in Name]?: NonNullable<T> };

type InputOf<Op extends { parameters: object; requestBody?: unknown }> = Simplify<
  Part<
    'params',
    Op['parameters'] extends { path?: infer P } ? P : never,
    Op['parameters'] extends { path: unknown } ? true : false
  > &
    Part<
      'query',
      Op['parameters'] extends { query?: infer Q } ? Q : never,
      Op['parameters'] extends { query: unknown } ? true : false
    > &
    Part<'body', JsonOf<NonNullable<Op['requestBody']>>, Op extends { requestBody: unknown } ? true : false>
>;
type AnswerOf<Op extends { responses: object }> = JsonOf<Op['responses'][keyof Op['responses']]>;
type DataOf<Answer> = Answer extends { success: true; data: infer Data } ? Data : Answer;
type ItemOf<Answer> = Answer extends { pagination: object; data: Array<infer Item> } ? Item : never;
type PaginationOf<Answer> = Answer extends { pagination: infer P } ? P : never;

/** Each operation the client calls: what it takes (`input`), its `data` (`output`) and, for lists, one item. */
export type Operations = {
  [Op in keyof typeof Table & keyof Generated]: {
    input: InputOf<Generated[Op]>;
    output: DataOf<AnswerOf<Generated[Op]>>;
    item: ItemOf<AnswerOf<Generated[Op]>>;
    /** A list's `pagination` (the event feed's has no `total` and a cursor never null). */
    pagination: PaginationOf<AnswerOf<Generated[Op]>>;
  };
};

/** Operations that cannot be called without an input (a path id, a required body or query). */
export type OperationsWithRequiredInput = {
  [Op in keyof Operations]: {} extends Operations[Op]['input'] ? never : Op;
}[keyof Operations];
