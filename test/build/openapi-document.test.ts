import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../lib/domain/events';
import { callableRoutes, type RouteDef } from '../../lib/http/route';
import { buildAll } from '../../lib/openapi/document';
import { routes } from '../../lib/routes';
import { EVENT_ENVELOPES } from '../../lib/schemas/events';
import { documentProblems, schemaValidator } from '../fixtures/openapi-validator';

const { document: doc, missingExamples } = buildAll() as { document: Record<string, any>; missingExamples: string[] };
const validator = schemaValidator(doc);
/** Operations answering other than JSON (their rows' `produces`). */
const RAW_RESPONSES = Object.fromEntries(
  callableRoutes(routes).flatMap(([operation, route]) => (route.produces ? [[operation, route.produces]] : [])),
);
const entries = callableRoutes(routes);
const operationOf = (route: RouteDef) => doc.paths[route.path]?.[route.method.toLowerCase()];
const deref = (node: any) =>
  node?.$ref
    ? node.$ref
        .slice(2)
        .split('/')
        .reduce((at: any, key: string) => at?.[key], doc)
    : node;
const json = (content: any) => content?.['application/json'];

/** Every JSON Schema object in the document with where it is: components, parameters, bodies, responses. */
function schemasOf(): Array<[string, any]> {
  const found: Array<[string, any]> = Object.entries<any>(doc.components.schemas).map(([name, schema]) => [
    `components.schemas.${name}`,
    schema,
  ]);
  const operations = [
    ...Object.entries<any>(doc.paths).flatMap(([path, ops]) =>
      Object.entries<any>(ops).map(([method, op]) => [`${method} ${path}`, op] as const),
    ),
    ...Object.entries<any>(doc.webhooks).map(([type, item]) => [`webhook ${type}`, item.post] as const),
  ];
  for (const [at, op] of operations) {
    for (const p of op.parameters ?? []) if (!p.$ref) found.push([`${at} ${p.in} ${p.name}`, p.schema]);
    const body = json(op.requestBody?.content)?.schema;
    if (body) found.push([`${at} body`, body]);
    for (const [status, response] of Object.entries<any>(op.responses)) {
      const schema = json(deref(response).content)?.schema;
      if (schema) found.push([`${at} ${status}`, schema]);
    }
  }
  return found;
}

/** Properties without a description (a `$ref` counts as described when its target is). */
function undescribed(schema: any, at: string, out: string[] = [], seen = new Set<any>()): string[] {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return out;
  seen.add(schema);
  for (const [name, property] of Object.entries<any>(schema.properties ?? {})) {
    const target = deref(property);
    const described =
      property.description ||
      target?.description ||
      (property.anyOf ?? []).some((option: any) => deref(option)?.description);
    if (!described) out.push(`${at}.${name}`);
    undescribed(property, `${at}.${name}`, out, seen);
  }
  for (const key of ['items', 'additionalProperties', 'not'])
    if (schema[key] && typeof schema[key] === 'object') undescribed(schema[key], `${at}[${key}]`, out, seen);
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'])
    for (const [i, part] of (schema[key] ?? []).entries()) undescribed(part, `${at}.${key}${i}`, out, seen);
  return out;
}

describe('the OpenAPI document validates', () => {
  it('against the OpenAPI 3.1 JSON Schema (ajv, JSON Schema 2020-12; schema objects against the 2020-12 meta-schema)', () => {
    expect(documentProblems(doc)).toEqual([]);
  });

  it('every schema in it compiles as JSON Schema 2020-12', () => {
    for (const [at, schema] of schemasOf()) expect(() => validator.check(schema, null), at).not.toThrow();
  });

  it('lists the runtime time zones in the TimeZone component (computed when the document is built)', () => {
    const zones: string[] = doc.components.schemas.TimeZoneInput.enum;
    expect(zones).toEqual(expect.arrayContaining(['America/New_York', 'Europe/London', 'UTC']));
    expect(zones).toEqual([...zones].sort());
  });

  it('lists every route of the route table, and only those', () => {
    const documented = Object.entries<any>(doc.paths)
      .flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    expect(documented).toEqual(entries.map(([, route]) => `${route.method} ${route.path}`).sort());
  });

  it('has the event payloads in its webhooks section: one per event type, from the envelope schemas', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...EVENT_TYPES, 'webhook.test'].sort());
    for (const [type, item] of Object.entries<any>(doc.webhooks)) {
      const body = json(item.post.requestBody.content);
      const schema = deref(body.schema);
      expect(schema.properties.type.const, type).toBe(type);
      expect(item.post.parameters.map((p: any) => p.name)).toEqual([
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
      ]);
      expect(EVENT_ENVELOPES[type as keyof typeof EVENT_ENVELOPES].safeParse(body.example).success, type).toBe(true);
    }
  });

  it('describes every field of every schema', () => {
    const missing = schemasOf().flatMap(([at, schema]) => undescribed(schema, at));
    expect([...new Set(missing)]).toEqual([]);
    for (const [at, op] of Object.entries<any>(doc.paths).flatMap(([path, ops]) =>
      Object.entries<any>(ops).map(([m, op]) => [`${m} ${path}`, op] as const),
    )) {
      for (const p of op.parameters) expect(deref(p).description, `${at} ${p.name ?? p.$ref}`).toBeTruthy();
    }
  });

  it('passes `redocly lint` with its recommended rules: no error, no warning', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    const cli = join(process.cwd(), 'node_modules', '.bin', 'redocly');
    const { stdout } = await promisify(execFile)(cli, ['lint', file, '--extends=recommended', '--format=json'], {
      maxBuffer: 64 * 1024 * 1024,
      timeout: 90_000,
      // No usage telemetry, no update check: the test needs no network.
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    const report = JSON.parse(stdout.slice(stdout.indexOf('{')));
    const problems = (
      report.problems as Array<{ ruleId: string; message: string; location: Array<{ pointer: string }> }>
    ).map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    expect(problems.slice(0, 20)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 90_000);
});

describe("examples, built from the schemas' own example metadata", () => {
  it('every field has an example to build from', () => {
    expect(missingExamples).toEqual([]);
  });

  it('every request body and every response has one', () => {
    for (const [operation, route] of entries) {
      const op = operationOf(route);
      if (op.requestBody) expect(json(op.requestBody.content).example, `${operation} body`).toBeDefined();
      for (const [status, ref] of Object.entries<any>(op.responses)) {
        const content = deref(ref).content;
        // A 304 has no body to give an example of.
        if (status === '304') {
          expect(content, `${operation} 304`).toBeUndefined();
          continue;
        }
        if (RAW_RESPONSES[operation] && Number(status) < 400) {
          for (const media of Object.values<any>(content))
            expect(media.example, `${operation} ${status}`).toBeDefined();
          continue;
        }
        const media = json(content);
        expect(media.example ?? media.examples, `${operation} ${status}`).toBeDefined();
      }
    }
  });

  it('each one validates against its schema in the document (ajv)', () => {
    let checked = 0;
    const check = (at: string, schema: any, value: unknown) => {
      checked += 1;
      expect(validator.check(schema, value), at).toEqual([]);
    };
    const operations = [
      ...Object.entries<any>(doc.paths).flatMap(([path, ops]) =>
        Object.entries<any>(ops).map(([m, op]) => [`${m} ${path}`, op] as const),
      ),
      ...Object.entries<any>(doc.webhooks).map(([type, item]) => [`webhook ${type}`, item.post] as const),
    ];
    for (const [at, op] of operations) {
      for (const [type, media] of Object.entries<any>(op.requestBody?.content ?? {}))
        check(`${at} ${type}`, media.schema, media.example);
      for (const [status, ref] of Object.entries<any>(op.responses)) {
        const media = json(deref(ref).content);
        if (!media) continue;
        if (media.example !== undefined) check(`${at} ${status}`, media.schema, media.example);
        for (const [name, example] of Object.entries<any>(media.examples ?? {}))
          check(`${at} ${status} ${name}`, media.schema, deref(example).value);
      }
      for (const p of op.parameters ?? []) {
        const parameter = deref(p);
        for (const example of parameter.schema.examples ?? [])
          check(`${at} ${parameter.name}`, parameter.schema, example);
      }
    }
    expect(checked).toBeGreaterThan(300);
  });

  it('each request and response example is also what the zod schema it came from accepts', () => {
    for (const [operation, route] of entries) {
      const op = operationOf(route);
      if (route.body) {
        const parsed = route.body.safeParse(json(op.requestBody.content).example);
        expect(parsed.success, `${operation} body: ${parsed.error?.message}`).toBe(true);
      }
      if (route.params) {
        const params = Object.fromEntries(
          op.parameters.filter((p: any) => p.in === 'path').map((p: any) => [p.name, p.schema.examples?.[0]]),
        );
        expect(route.params.safeParse(params).success, `${operation} params`).toBe(true);
      }
      if (route.query) {
        const query = Object.fromEntries(
          op.parameters.filter((p: any) => p.in === 'query').map((p: any) => [p.name, p.schema.examples?.[0]]),
        );
        // Alternatives (`startDate` beside `from`) are each valid, so check them one by one.
        for (const [name, value] of Object.entries(query)) {
          const parsed = route.query.safeParse({ [name]: value });
          const onlyMissing =
            parsed.error?.issues.every((issue) => issue.code === 'invalid_type' && issue.input === undefined) ?? true;
          expect(onlyMissing, `${operation} ?${name}=${String(value)}: ${parsed.error?.message}`).toBe(true);
        }
      }
      if (route.response) {
        const success = Object.entries<any>(op.responses).find(([status]) => Number(status) < 400)![1];
        const example = json(success.content).example;
        const data = route.envelope === false ? example : example.data;
        const parsed = route.response.safeParse(data);
        expect(parsed.success, `${operation} response: ${parsed.error?.message}`).toBe(true);
      }
    }
  });
});

describe('allowed_origins in the document', () => {
  const ORIGINS = [
    'https://spa.example',
    'https://book.spa.example:8443',
    'http://localhost:3000',
    'http://127.0.0.1',
    'https://[::1]:8443',
    '',
    'https://*.example',
    'https://a;b.example',
    'https://a_b.example',
    'https://spa.example/',
    'http://spa.example',
    'https://spa.example:0',
    'https://spa.example:65536',
    '*',
    'null',
  ];
  const bodies = [
    ['createPublishableKey', (origin: string) => ({ name: 'Site', allowed_origins: [origin] })],
    ['updatePractice', (origin: string) => ({ allowed_origins: [origin] })],
  ] as const;

  it.each(bodies)(
    '%s: the JSON Schema takes an origin exactly when the API does ("" and wildcards refused by both)',
    (operation, bodyOf) => {
      const [, route] = entries.find(([name]) => name === operation)!;
      const schema = json(operationOf(route).requestBody.content).schema;
      for (const origin of ORIGINS) {
        const api = route.body!.safeParse(bodyOf(origin)).success;
        expect(
          validator.check(schema, bodyOf(origin)).length === 0,
          `${JSON.stringify(origin)}: the API ${api ? 'takes' : 'refuses'} it`,
        ).toBe(api);
      }
      expect(route.body!.safeParse(bodyOf('https://*.example')).success).toBe(false);
    },
  );
});
