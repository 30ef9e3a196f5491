import * as z from './zod';

import { isEntityId } from '../domain/ids';

/**
 * Builds one module-level schema; each call is written `/* @__PURE__ *\/ schema(...)` (esbuild does
 * not carry this function's own annotation across modules) so a bundler may drop it: each
 * function's bundle keeps only the schemas its route reaches (esbuild removes the rest), instead of
 * building every schema of every module it imports on each cold start (docs/decisions/0011).
 */
/* @__NO_SIDE_EFFECTS__ */
export function schema<T>(build: () => T): T {
  return build();
}

export { isEntityId };
/** The nil UUID: never assigned (ids are random v4), so it is absent everywhere. */
export const NO_SUCH_ID = '00000000-0000-0000-0000-000000000000';

/**
 * Field documentation lives on the schemas: `doc` for the prose (and examples), `meta` for the rest
 * of a schema's JSON Schema (`format`, `examples`, a component `id`...). The OpenAPI document
 * (lib/openapi) turns both into JSON Schema `description` and `examples`, and builds every request
 * and response example from them (test/unit/openapi-document.test.ts parses each one with the
 * schema it documents).
 *
 * `meta` is classic zod's `.meta()`: a copy of the schema, registered in z.globalRegistry with
 * `data` (and inheriting its original's metadata, `id` aside); the original keeps its own. Not
 * mini's `z.meta` check: a check stays in the copy's checks, so `z.extend`, `z.pick` and
 * `z.partial` refuse the object (they take no object with checks), and every later copy (a
 * `.check(...)`) registers the same metadata again, a component `id` included.
 */
export function meta<T extends z.core.$ZodType>(schema: T, data: z.core.GlobalMeta): T {
  const copy = z.clone(schema);
  z.globalRegistry.add(copy, data as never);
  return copy;
}
/** A schema's description, and its examples when given (`meta` with `description`, `examples`). */
export const doc = <T extends z.core.$ZodType>(schema: T, description: string, ...examples: unknown[]): T =>
  meta(schema, examples.length > 0 ? { description, examples } : { description });

/** Free text: trimmed, at most `max` characters. */
export const Text = (max: number) => z.string().check(z.trim(), z.maxLength(max));

/** Fixed example ids, one per kind, so examples that refer to each other agree. */
export const EXAMPLE_ID = {
  practice: '3f2b8c1e-7d4a-4e59-9b10-2c6d8e4f1a01',
  client: 'c7d2e9f4-1a3b-4c5d-8e6f-7a8b9c0d1e02',
  service: '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c03',
  provider: '9c8b7a6d-5e4f-4d3c-9b2a-1f0e9d8c7b04',
  room: '7e6d5c4b-3a2f-4e1d-8c0b-9a8f7e6d5c05',
  equipment: 'e1d2c3b4-a5f6-4789-9a0b-c1d2e3f4a506',
  appointment: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c07',
  payment: 'b9a8c7d6-e5f4-4321-8fed-cba987654308',
  product: 'd4c3b2a1-f6e5-4d7c-9b8a-706f5e4d3c09',
  consent: 'f0e1d2c3-b4a5-4697-8877-665544332210',
  webhook: '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d11',
  delivery: '6e5d4c3b-2a19-4f8e-8d7c-6b5a49382712',
  adjustment: '8a7b6c5d-4e3f-4a2b-9c1d-0e9f8a7b6c13',
  publishableKey: '4d5e6f7a-8b9c-4d0e-9f1a-2b3c4d5e6f14',
  hold: '0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e15',
  series: '0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e16',
  plan: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c16',
  clientPlan: '7f8e9d0c-1b2a-4c3d-9e4f-5a6b7c8d9e17',
  ledgerEntry: '3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e18',
  lot: '5b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d19',
  photo: '5b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d1a',
  formTemplate: '6c7d8e9f-0a1b-4c2d-8e3f-4a5b6c7d8e1b',
  formSubmission: '7d8e9f0a-1b2c-4d3e-9f4a-5b6c7d8e9f1c',
  waitlistEntry: '6d7e8f90-1a2b-4c3d-8e4f-5a6b7c8d9e1b',
} as const;
export type ExampleKind = keyof typeof EXAMPLE_ID;

/** Example instants, all UTC as the API writes them. */
export const EXAMPLE_TIME = {
  created: '2026-11-23T14:05:09.412Z',
  updated: '2026-11-23T14:32:51.006Z',
  start: '2026-12-01T15:00:00.000Z',
  end: '2026-12-01T16:00:00.000Z',
} as const;

/**
 * An id input naming a kind: its description and example say which. Ids are server-made UUIDs. A
 * malformed one (any length, any characters) becomes the nil UUID, so it answers the resource's
 * 404 exactly like an unknown id, and never reaches a key. The document still says `format: uuid`,
 * as for the ids it answers (OutId), so a generated client types an id it sends back as the id it
 * received; the format is what a valid id looks like, not a check that turns a bad one into a 400
 * (contract section 1: a malformed id is its resource's 404).
 */
export const IdOf = (kind: ExampleKind, description: string) =>
  z.pipe(
    meta(z.string(), { description, format: 'uuid', examples: [EXAMPLE_ID[kind]] }),
    z.transform((value) => (isEntityId(value.toLowerCase()) ? value.toLowerCase() : NO_SUCH_ID)),
  );
export const Id = /* @__PURE__ */ schema(() =>
  IdOf('appointment', 'A UUID assigned by the server. An unknown or malformed one answers the 404 of its resource.'),
);
export const IdParams = /* @__PURE__ */ schema(() => z.object({ id: Id }));

/** An id the server wrote (output). */
export const OutId = (kind: ExampleKind, description: string) =>
  meta(z.string(), { description, format: 'uuid', examples: [EXAMPLE_ID[kind]] });
/** An instant the server wrote: always UTC, `Date.toISOString()` form. */
export const Instant = (description: string, example: string = EXAMPLE_TIME.created) =>
  meta(z.string(), { description, format: 'date-time', examples: [example] });

/** Years the API takes: wide enough for any booking or birth date, far from the format's edges. */
const yearInRange = (value: string) => {
  const year = Number(value.slice(0, 4));
  return year >= 1900 && year <= 2999;
};
const YEARS = 'the year must be between 1900 and 2999';
/** The same rule for JSON Schema readers (and request generators): years 1900-2999. */
export const YEARS_PATTERN = /* @__PURE__ */ schema(() => '^(19|2[0-9])[0-9]{2}-');

/** `^(...)-`: the years `from`..`to` as a pattern on a date's first four digits. */
export function yearsPattern(from: number, to: number): string {
  const years: string[] = [];
  for (let year = from; year <= to; year += 1) years.push(String(year));
  // Collapse whole decades: 1900-2019 -> 19[0-9][0-9]|200[0-9]|201[0-9] style groups.
  const groups: string[] = [];
  for (let i = 0; i < years.length; ) {
    const decade = years[i].slice(0, 3);
    const inDecade = years.filter((y) => y.startsWith(decade));
    if (inDecade.length === 10 && years[i].endsWith('0')) {
      groups.push(`${decade}[0-9]`);
      i += 10;
    } else {
      groups.push(years[i]);
      i += 1;
    }
  }
  return `^(${groups.join('|')})-`;
}

/** ISO 8601 with an offset (`Z` or `±hh:mm`); a date-time without one is a VALIDATION_ERROR. */
export const DateTime = /* @__PURE__ */ schema(() =>
  meta(z.iso.datetime({ offset: true }).check(z.refine(yearInRange, YEARS)), {
    description: 'ISO 8601 date-time with seconds and an offset (`Z` or `±hh:mm`); years 1900-2999.',
    examples: ['2026-12-01T10:00:00-05:00'],
    allOf: [{ pattern: YEARS_PATTERN }],
  }),
);
/** A practice-local calendar date. */
export const LocalDate = /* @__PURE__ */ schema(() =>
  meta(z.iso.date().check(z.refine(yearInRange, YEARS)), {
    description: 'A practice-local date (YYYY-MM-DD); years 1900-2999.',
    examples: ['2026-12-01'],
    allOf: [{ pattern: YEARS_PATTERN }],
  }),
);
/** A practice-local wall-clock time. */
export const LocalTime = /* @__PURE__ */ schema(() =>
  doc(
    z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$|^24:00$/, 'expected HH:MM')),
    'Practice-local wall-clock time, HH:MM (24:00 is the next midnight).',
    '09:00',
  ),
);

export const Limit = /* @__PURE__ */ schema(() =>
  doc(z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 50), 'Page size, 1-100.', 50),
);
const Cursor = /* @__PURE__ */ schema(() =>
  doc(
    z.optional(z.string().check(z.maxLength(2048))),
    'The `pagination.next_cursor` of the previous page (opaque; bound to this list and its filters, valid 24 h). Omit for the first page.',
    'AcX3q0vYb2tq9mJ0dG9rZW4tZXhhbXBsZQ',
  ),
);
export const PageQuery = /* @__PURE__ */ schema(() => z.object({ limit: Limit, cursor: Cursor }));

export const Pagination = /* @__PURE__ */ schema(() =>
  doc(
    z.object({
      total: doc(z.number().check(z.int()), 'How many items the whole list has, over all pages.', 1),
      next_cursor: doc(z.nullable(z.string()), 'Pass as `cursor` to get the next page; null on the last page.', null),
    }),
    'Where a list stands: `total` items in all, and the cursor of the next page.',
  ),
);

export const Timestamps = /* @__PURE__ */ schema(() => ({
  version: doc(
    z.number().check(z.int()),
    'Starts at 1 and grows by 1 with every change; the `ETag` of single-resource answers, and what `If-Match` compares.',
    1,
  ),
  created_at: Instant('When it was created (UTC).'),
  updated_at: Instant('When it last changed (UTC).', EXAMPLE_TIME.updated),
}));

export const Deleted = /* @__PURE__ */ schema(() =>
  doc(
    z.object({
      id: doc(z.string(), 'The id (or client_id) of what was deleted.', EXAMPLE_ID.appointment),
      deleted: doc(z.literal(true), 'Always true.'),
    }),
    'The answer of every DELETE.',
  ),
);
