import type { CreateDocumentOptions } from 'zod-openapi';
import { HEALTH_SCORE_DESCRIPTION } from './descriptions';

/**
 * This document's conventions where zod-openapi's rendering differs: how schemas are rendered
 * (RENDERING), and the touches its output gets before the document is whole.
 */

type Json = Record<string, any>;

/** How zod schemas are rendered, beyond zod-openapi's own rules. */
export const RENDERING: CreateDocumentOptions = {
  override: ({ zodSchema, jsonSchema, io }) => {
    // zod strips unknown keys, so it says `additionalProperties: false` of every output object;
    // answers may gain fields (not a breaking change), so only strict ones keep it.
    const def = zodSchema._zod.def as { type: string; catchall?: unknown; shape?: Record<string, unknown> };
    if (io === 'output' && def.type === 'object' && def.catchall === undefined) delete jsonSchema.additionalProperties;
    // `.int()` means a safe integer; its ±(2^53 - 1) bounds say nothing to a reader.
    if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
    if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
    // The health score's rule lives in code; wherever an answer carries one, the document says it.
    const score = (
      def.type === 'object' && def.shape?.health_score ? jsonSchema.properties?.health_score : undefined
    ) as Json | undefined;
    if (score && !score.$ref) score.description = HEALTH_SCORE_DESCRIPTION;
  },
};

const SCHEMA_REF = '#/components/schemas/';

/** Component names a subtree refers to, and those they refer to in turn. */
function referencedIn(node: unknown, schemas: Json, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) referencedIn(item, schemas, found);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key !== '$ref' || typeof value !== 'string') referencedIn(value, schemas, found);
      else if (value.startsWith(SCHEMA_REF) && !found.has(value.slice(SCHEMA_REF.length))) {
        found.add(value.slice(SCHEMA_REF.length));
        referencedIn(schemas[value.slice(SCHEMA_REF.length)], schemas, found);
      }
    }
  }
  return found;
}

/**
 * zod-openapi names a component by its schema's `id`, rendered as a request where requests use
 * it; those only requests use are named `<id>Input` (TimeZoneInput), so a name the answers use
 * always means what the server sends.
 */
export function nameInputComponents(document: Json): Json {
  const schemas = document.components.schemas;
  const operations = Object.values<Json>(document.paths).flatMap((item) => Object.values<Json>(item));
  const inputs = referencedIn(
    operations.map((op) => [op.parameters, op.requestBody]),
    schemas,
  );
  const outputs = referencedIn(
    [operations.map((op) => op.responses), document.webhooks, document.components.responses],
    schemas,
  );
  const renamed = new Map([...inputs].filter((name) => !outputs.has(name)).map((name) => [name, `${name}Input`]));
  const result = JSON.parse(
    JSON.stringify(document).replace(/"#\/components\/schemas\/([^"]+)"/g, (ref, name: string) =>
      renamed.has(name) ? `"${SCHEMA_REF}${renamed.get(name)}"` : ref,
    ),
  );
  result.components.schemas = Object.fromEntries(
    Object.entries(result.components.schemas).map(([name, schema]) => [renamed.get(name) ?? name, schema]),
  );
  return result;
}

/**
 * A parameter says what its schema says: zod-openapi copies a field's own description only, not
 * one inside a pipe or an optional. And a field rendered as a `$ref` keeps the `param` metadata
 * zod-openapi strips from other schemas (zod-openapi 5.4.6).
 */
export function completeParameters(document: Json): void {
  for (const op of Object.values<Json>(document.paths).flatMap((item) => Object.values<Json>(item))) {
    for (const parameter of op.parameters as Json[]) {
      if (!parameter.schema) continue;
      if (!parameter.description && parameter.schema.description) parameter.description = parameter.schema.description;
      delete parameter.schema.param;
    }
  }
}

/** Adds components rendered apart (the events), refusing a name that means two shapes. */
export function addComponents(document: Json, components: Json): void {
  for (const [name, schema] of Object.entries(components)) {
    const taken = document.components.schemas[name];
    if (taken && JSON.stringify(taken) !== JSON.stringify(schema))
      throw new Error(`OpenAPI: component ${name} renders differently for events and for answers`);
    document.components.schemas[name] = schema;
  }
}
