/**
 * Every record the table stores, in one home, named `<Kind>Record`: the item as the domain and
 * the data layer see it, without its storage attributes (keys, index keys, `entity`). Each has
 * one codec in lib/db/codecs.ts (its key, its `entity` tag, to and from an item). Where a public
 * schema describes the same fields, the record derives from it (setup resources, clients) or is
 * checked against it at compile time (lib/schemas/record-checks.ts).
 */
export * from './access';
export * from './clients';
export * from './commerce';
export * from './common';
export * from './reports';
export * from './scheduling';
export * from './webhooks';
export * from './plans';
export * from './photos';
export * from './event-feed';
export * from './forms';
export * from './waitlist';
