/**
 * Examples built from the schemas' own metadata: a schema's first `examples` entry wins, else
 * its `const` or first `enum` value, else one is composed from its parts (an object from its
 * properties, an array from one item). A string with nothing to go by is reported in `missing`
 * (test/unit/openapi-document.test.ts keeps that list empty), so every example traces back to an
 * example someone wrote beside a field.
 */

type Json = Record<string, any>;

const FORMAT_EXAMPLES: Record<string, string> = {
  'date-time': '2026-11-23T14:05:09.412Z',
  date: '2026-12-01',
  uuid: '3f2b8c1e-7d4a-4e59-9b10-2c6d8e4f1a01',
  email: 'olivia.hart@example.com',
};

export interface ExampleContext {
  /** Follows a local `$ref`. */
  resolve(ref: string): Json | undefined;
  /** Where no example could be found (JSON paths). */
  missing: string[];
}

const isNull = (schema: unknown) => Boolean(schema && typeof schema === 'object' && (schema as Json).type === 'null');

export function exampleOf(schema: Json | boolean | undefined, context: ExampleContext, path = '$', depth = 0): unknown {
  if (schema === undefined || typeof schema === 'boolean') return {};
  if (depth > 40) return null;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('example' in schema) return schema.example;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (typeof schema.$ref === 'string') {
    const target = context.resolve(schema.$ref);
    if (!target) {
      context.missing.push(`${path} (unresolved ${schema.$ref})`);
      return null;
    }
    return exampleOf(target, context, path, depth + 1);
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(schema[key])) {
      const branch = schema[key].find((option: unknown) => !isNull(option)) ?? schema[key][0];
      return exampleOf(branch, context, path, depth + 1);
    }
  }
  if (!schema.type && Array.isArray(schema.allOf)) {
    const parts = schema.allOf.map((part: Json, i: number) =>
      exampleOf(part, context, `${path}/allOf/${i}`, depth + 1),
    );
    return parts.every((part: unknown) => part && typeof part === 'object' && !Array.isArray(part))
      ? Object.assign({}, ...parts)
      : parts[0];
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const result: Record<string, unknown> = {};
      for (const [name, property] of Object.entries<Json>(schema.properties ?? {})) {
        // `{ not: {} }`: a field that is always refused (documented, never sent).
        if (property && typeof property === 'object' && property.not && Object.keys(property.not).length === 0)
          continue;
        result[name] = exampleOf(property, context, `${path}.${name}`, depth + 1);
      }
      return result;
    }
    case 'array': {
      const count = Math.max(1, schema.minItems ?? 1);
      return Array.from({ length: count }, () => exampleOf(schema.items, context, `${path}[]`, depth + 1));
    }
    case 'string':
      if (schema.format && FORMAT_EXAMPLES[schema.format]) return FORMAT_EXAMPLES[schema.format];
      context.missing.push(path);
      return 'string';
    case 'integer':
    case 'number':
      context.missing.push(path);
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      context.missing.push(`${path} (no type)`);
      return {};
  }
}

const SCHEMA_REF = /^#\/components\/schemas\/(.+)$/;

/**
 * Gives every request and response body of a rendered document that has none an `example` built
 * from its schema; where nothing could be built is added to `missing`.
 */
export function addExamples(document: Json, missing: string[]): void {
  const context: ExampleContext = {
    missing,
    resolve: (ref) => document.components?.schemas?.[SCHEMA_REF.exec(ref)?.[1] ?? ''],
  };
  const operations = [
    ...Object.entries<Json>(document.paths ?? {}).flatMap(([path, item]) =>
      Object.entries<Json>(item).map(([method, op]) => [`${method} ${path}`, op] as const),
    ),
    ...Object.entries<Json>(document.webhooks ?? {}).map(
      ([type, item]) => [`webhook ${type}`, item.post as Json] as const,
    ),
  ];
  const fillIn = (content: Json | undefined, at: string) => {
    for (const [type, media] of Object.entries<Json>(content ?? {})) {
      if (media.example === undefined && media.examples === undefined && media.schema)
        media.example = exampleOf(media.schema, context, `${at} ${type}`);
    }
  };
  for (const [at, op] of operations) {
    fillIn(op.requestBody?.content, `${at} body`);
    for (const [status, response] of Object.entries<Json>(op.responses ?? {}))
      fillIn(response.content, `${at} ${status}`);
  }
}
