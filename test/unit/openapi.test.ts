import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { handlerModule, type RouteDef } from '../../lib/http/route';
import { callableRoutes, honoursIfMatch, successStatusOf } from '../../lib/http/route';
import { buildOpenApiDocument, DOC_ERROR_STATUS, type DocErrorCode } from '../../lib/openapi/document';
import { trafficOf } from '../../lib/openapi/traffic';
import { embeddedPart, GUIDE_PROSE } from '../../infra/openapi-prose';
import { HEALTH_SCORE_DESCRIPTION } from '../../lib/openapi/descriptions';
import { routes } from '../../lib/routes';

const root = join(import.meta.dirname, '..', '..');
const doc = buildOpenApiDocument() as Record<string, any>;
const entries = callableRoutes(routes);
const operationOf = (route: RouteDef) => doc.paths[route.path]?.[route.method.toLowerCase()];
const handlerSource = (operation: string, route: RouteDef) => {
  const file = join(root, `${handlerModule(operation, route)}.ts`);
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
};

/** Every `$ref` in the document, with where it is. */
function refsOf(node: unknown, at = '#', found: Array<[string, string]> = []) {
  if (Array.isArray(node))
    node.forEach((item, i) => {
      refsOf(item, `${at}/${i}`, found);
    });
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.push([at, value]);
      else refsOf(value, `${at}/${key}`, found);
    }
  }
  return found;
}

const resolvePointer = (ref: string) =>
  ref
    .slice(2)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<any>((node, part) => (node === undefined ? undefined : node[part]), doc);
/** An operation's response at a status, its shared component when it refers to one. */
const responseAt = (route: RouteDef, status: number | string) => {
  const response = operationOf(route).responses[String(status)];
  return response?.$ref ? resolvePointer(response.$ref) : response;
};

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 and plain JSON (no undefined, no functions)', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBeTruthy();
    expect(doc.info.version).toBeTruthy();
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
  });

  it('resolves every $ref inside the document', () => {
    const refs = refsOf(doc);
    expect(refs.length).toBeGreaterThan(0);
    for (const [at, ref] of refs) {
      expect(ref.startsWith('#/'), `${at}: ${ref} is not local`).toBe(true);
      expect(resolvePointer(ref), `${at}: ${ref} does not resolve`).toBeDefined();
    }
  });

  it('has exactly one operation per route, with its method, path, operationId, summary and tag', () => {
    const operations = Object.values<Record<string, any>>(doc.paths).flatMap((ops) => Object.values(ops));
    expect(operations).toHaveLength(entries.length);
    expect(new Set(operations.map((op) => op.operationId)).size).toBe(entries.length);
    const tags = new Set(doc.tags.map((tag: { name: string }) => tag.name));
    for (const [operation, route] of entries) {
      const op = operationOf(route);
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      expect(op.operationId).toBe(operation);
      expect(op.summary).toBe(route.summary);
      // The public-booking operations have a tag of their own (API reference, online booking).
      const tag = route.auth === 'publishable' ? 'Online booking' : route.group;
      expect(op.tags).toEqual([tag]);
      expect(tags.has(tag)).toBe(true);
    }
  });

  it('declares every path parameter, required, and no others', () => {
    for (const [operation, route] of entries) {
      const inPath = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      const declared = operationOf(route).parameters.filter((p: any) => p.in === 'path');
      expect(declared.map((p: any) => p.name).sort(), operation).toEqual(inPath);
      for (const p of declared) expect(p.required, `${operation} ${p.name}`).toBe(true);
    }
  });

  it('declares query parameters from the query schema', () => {
    const list = operationOf(routes.getAppointments).parameters.filter((p: any) => p.in === 'query');
    const names = list.map((p: any) => p.name);
    expect(names).toEqual(expect.arrayContaining(['from', 'to', 'limit', 'cursor', 'status', 'provider_id']));
    expect(list.find((p: any) => p.name === 'limit').required).toBe(false);
    const search = operationOf(routes.searchAvailability);
    expect(search.parameters.filter((p: any) => p.in === 'query').map((p: any) => [p.name, p.required])).toEqual([
      ['service_id', false],
      ['from', true],
      ['to', true],
      ['provider_id', false],
      ['duration_minutes', false],
      ['interval_minutes', false],
      ['room_id', false],
      ['equipment_id', false],
      ['time_zone', false],
    ]);
    expect(search.responses['200'].content['application/json'].schema.properties.data.items).toEqual({
      $ref: '#/components/schemas/AvailabilityEntry',
    });
    expect(doc.components.schemas.AvailabilityEntry.required).toEqual(['date', 'provider', 'slots']);
    expect(Object.keys(search.responses)).toEqual(expect.arrayContaining(['200', '400', '404', '422']));
    const availability = operationOf(routes.checkProviderAvailability).parameters.filter((p: any) => p.in === 'query');
    expect(availability.find((p: any) => p.name === 'start')).toMatchObject({
      required: true,
      schema: { type: 'string', format: 'date-time' },
    });
  });

  it('has a JSON request body schema for every route with a body (and the form where accepted)', () => {
    for (const [operation, route] of entries) {
      const op = operationOf(route);
      if (!route.body) {
        expect(op.requestBody, operation).toBeUndefined();
        continue;
      }
      expect(op.requestBody.content['application/json'].schema, operation).toBeTypeOf('object');
      expect(Boolean(op.requestBody.content['application/x-www-form-urlencoded']), operation).toBe(
        Boolean(route.acceptsForm),
      );
    }
    const create = operationOf(routes.createAppointment).requestBody;
    expect(create.required).toBe(true);
    expect(create.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['client_id', 'service_id', 'provider_id', 'scheduled_at']),
    );
    expect(operationOf(routes.cancelAppointment).requestBody.required).toBe(false);
  });

  it('wraps envelope responses in { success, data } and lists add pagination', () => {
    const list = operationOf(routes.getAppointments).responses['200'].content['application/json'].schema;
    expect(list.required).toEqual(['success', 'data', 'pagination']);
    expect(list.properties.data.type).toBe('array');
    expect(list.properties.pagination).toEqual({ $ref: '#/components/schemas/Pagination' });
    const one = operationOf(routes.getAppointment).responses['200'];
    expect(one.content['application/json'].schema.properties.success).toMatchObject({ const: true });
    expect(one.headers.ETag).toBeDefined();
    const token = operationOf(routes.createToken).responses['200'].content['application/json'].schema;
    expect(token.properties.access_token).toBeDefined();
    expect(token.properties.success).toBeUndefined();
  });

  it('documents the success status the route table gives each operation', () => {
    for (const [operation, route] of entries) {
      // 304 (a conditional GET's) is no success status: it has no body.
      const success = Object.keys(operationOf(route).responses).filter(
        (status) => Number(status) < 400 && status !== '304',
      );
      expect(success, operation).toEqual([String(successStatusOf(route))]);
    }
    expect(successStatusOf(routes.sendReminder)).toBe(202);
    expect(successStatusOf(routes.createAppointment)).toBe(201);
  });

  it('documents If-Match exactly where the handler reads it', () => {
    for (const [operation, route] of entries) {
      const source = handlerSource(operation, route);
      if (source === undefined) continue;
      const reads = /\bifMatch\b/.test(source);
      expect(
        honoursIfMatch(route),
        `${operation}: handler ${reads ? 'reads' : 'ignores'} If-Match; set ifMatch in its route row`,
      ).toBe(reads);
      const documented = operationOf(route).parameters.some((p: any) => p.$ref === '#/components/parameters/IfMatch');
      expect(documented, operation).toBe(reads);
    }
  });

  it('puts each error code under its HTTP status, X-Request-Id on every response', () => {
    for (const [operation, route] of entries) {
      for (const [status, ref] of Object.entries<any>(operationOf(route).responses)) {
        const response = ref.$ref ? resolvePointer(ref.$ref) : ref;
        expect(response.headers['X-Request-Id'], `${operation} ${status}`).toEqual({
          $ref: '#/components/headers/X-Request-Id',
        });
        if (Number(status) < 400) continue;
        const codes: DocErrorCode[] = response.content['application/json'].schema.properties.error.properties.code.enum;
        expect(codes.length, `${operation} ${status}`).toBeGreaterThan(0);
        for (const code of codes) expect(DOC_ERROR_STATUS[code], `${operation} ${code}`).toBe(Number(status));
        expect(Object.keys(response.content['application/json'].examples).sort(), `${operation} ${status}`).toEqual(
          [...codes].sort(),
        );
      }
    }
    const codesAt = (route: RouteDef, status: number) =>
      responseAt(route, status).content['application/json'].schema.properties.error.properties.code.enum;
    expect(codesAt(routes.createAppointment, 404)).toEqual(
      expect.arrayContaining([
        'CLIENT_NOT_FOUND',
        'SERVICE_NOT_FOUND',
        'PROVIDER_NOT_FOUND',
        'ROOM_NOT_FOUND',
        'EQUIPMENT_NOT_FOUND',
      ]),
    );
    expect(Object.keys(operationOf(routes.createAppointment).responses)).toEqual([
      '201',
      '400',
      '401',
      '403',
      '404',
      '409',
      '413',
      '414',
      '415',
      '422',
      '429',
      '431',
      '500',
    ]);
    expect(codesAt(routes.createAppointment, 422)).toEqual([
      'IDEMPOTENCY_KEY_REUSED',
      'PLAN_NOT_APPLICABLE',
      'PROVIDER_NOT_CERTIFIED',
    ]);
    expect(codesAt(routes.createAppointment, 429)).toEqual(['RATE_LIMITED']);
    expect(operationOf(routes.getHealth).responses['401']).toBeUndefined();
    expect(operationOf(routes.getHealth).responses['429']).toBeUndefined();
    // Wrong credentials, or a publishable key sent with them (it works on /v1/public/* only).
    expect(codesAt(routes.createToken, 401)).toEqual(['INVALID_CLIENT', 'UNAUTHORIZED']);
  });

  it('secures every staff operation with the bearer JWT and lists its roles; public booking with the publishable key', () => {
    expect(doc.components.securitySchemes.publishableKey).toEqual(
      expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Publishable-Key' }),
    );
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
    });
    expect(doc.components.securitySchemes.oauth2.flows.clientCredentials.tokenUrl).toBe(
      `${doc.servers[0].url}${routes.createToken.path}`,
    );
    for (const [operation, route] of entries) {
      const op = operationOf(route);
      for (const requirement of op.security) {
        for (const scheme of Object.keys(requirement))
          expect(doc.components.securitySchemes[scheme], `${operation}: ${scheme}`).toBeDefined();
      }
      if (route.auth === 'public') {
        expect(
          op.security.some((r: object) => Object.keys(r).length === 0) || op.security.length === 0,
          operation,
        ).toBe(true);
        expect(op['x-roles']).toBeUndefined();
      } else if (route.auth === 'publishable') {
        // Browsers with a publishable key only: a bearer token is not taken there.
        expect(op.security, operation).toEqual([{ publishableKey: [] }]);
        expect(op['x-roles']).toBeUndefined();
      } else {
        expect(op.security).toContainEqual({ bearerAuth: [] });
        expect(op['x-roles'], operation).toEqual([...route.auth]);
      }
    }
  });

  it('declares the ids a request sends as `format: uuid`, like the ids it answers (a generated client passes them back as they came)', () => {
    // Credentials are named by their client_id (`ci_...`), events by their event id (`evt_...`), not a UUID.
    const notUuids = new Set(['client_id', 'GET /v1/events/{id} id']);
    const idName = (name: string) => name === 'id' || name.endsWith('_id') || name.endsWith('_ids');
    const plain: string[] = [];
    const check = (schema: any, at: string): void => {
      if (!schema || typeof schema !== 'object') return;
      if (schema.$ref) {
        check(resolvePointer(schema.$ref), at);
        return;
      }
      for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) check(branch, at);
      if (schema.type === 'array' || schema.items) {
        check(schema.items, `${at}[]`);
        return;
      }
      if (schema.type === 'string' || (Array.isArray(schema.type) && schema.type.includes('string'))) {
        if (schema.format !== 'uuid' && !schema.anyOf) plain.push(at);
      }
    };
    let checked = 0;
    for (const [, route] of entries) {
      const op = operationOf(route);
      for (const parameter of op.parameters ?? []) {
        const p = parameter.$ref ? resolvePointer(parameter.$ref) : parameter;
        if (!idName(p.name) || notUuids.has(p.name) || notUuids.has(`${route.method} ${route.path} ${p.name}`))
          continue;
        checked++;
        // `a,b` lists are one string of several ids: their repeated form's items say uuid.
        if (p.schema.anyOf)
          check(
            p.schema.anyOf.find((s: any) => s.type === 'array'),
            `${route.method} ${route.path} ${p.name}`,
          );
        else check(p.schema, `${route.method} ${route.path} ${p.name}`);
      }
      const body = op.requestBody?.content?.['application/json']?.schema;
      const properties = (body?.$ref ? resolvePointer(body.$ref) : body)?.properties ?? {};
      for (const [name, schema] of Object.entries<any>(properties)) {
        if (!idName(name) || notUuids.has(name)) continue;
        checked++;
        check(schema, `${route.method} ${route.path} body ${name}`);
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(plain).toEqual([]);
  });

  it('describes the health score formula wherever health_score appears', () => {
    expect(operationOf(routes.getClient).responses['200'].content['application/json'].schema.properties.data).toEqual({
      $ref: '#/components/schemas/Client',
    });
    expect(doc.components.schemas.Client.properties.health_score.description).toBe(HEALTH_SCORE_DESCRIPTION);
    expect(JSON.stringify(doc).split('"health_score":{').length - 1).toBe(
      JSON.stringify(doc).split(JSON.stringify(HEALTH_SCORE_DESCRIPTION)).length - 1,
    );
  });

  it('carries docs/guide\'s conventions and "Choices where the contract is silent", word for word', () => {
    for (const [heading, file] of [
      ['## Conventions', GUIDE_PROSE.conventions],
      ['## Choices where the contract is silent', GUIDE_PROSE.choices],
    ]) {
      const part = embeddedPart(readFileSync(join(root, file), 'utf8'), file);
      expect(part.length, `${file}'s embedded part`).toBeGreaterThan(1000);
      expect(doc.info.description).toContain(`${heading}\n\n${part}`);
    }
    for (const topic of ['success', 'pagination', 'If-Match', 'time zone', 'minor units'])
      expect(doc.info.description).toContain(topic);
  });
});

describe('rate limits and idempotency keys (the trafficOf hook)', () => {
  const header = (name: string) => (p: any) =>
    p.$ref === `#/components/parameters/${name}` ||
    (name === 'IdempotencyKey' && p.name === 'Idempotency-Key' && p.in === 'header');
  it('every authenticated operation is rate limited, and the token exchange per client IP: RateLimit-* on every answer, 429 with Retry-After', () => {
    for (const [operation, route] of entries) {
      const op = operationOf(route);
      const limited = route.auth !== 'public' || operation === 'createToken';
      expect(trafficOf(operation, route).rateLimited, operation).toBe(limited);
      for (const status of Object.keys(op.responses)) {
        // The transport's refusals (414, 431) come before any route, rate limit included.
        if (['414', '431'].includes(status)) continue;
        expect(Boolean(responseAt(route, status).headers['RateLimit-Remaining']), `${operation} ${status}`).toBe(
          limited,
        );
      }
      expect(Boolean(op.responses['429']), operation).toBe(limited);
      if (limited)
        expect(responseAt(route, 429).headers['Retry-After']).toEqual({ $ref: '#/components/headers/Retry-After' });
    }
  });

  it('every POST but the token exchange takes an Idempotency-Key; a row may say otherwise', () => {
    for (const [operation, route] of entries) {
      const byDefault = route.method === 'POST' && operation !== 'createToken';
      // A row may say otherwise (setContactConsent, a PUT that records an entry per call, takes one).
      const takes = route.idempotent === undefined ? byDefault : route.idempotent !== false;
      expect(operationOf(route).parameters.some(header('IdempotencyKey')), operation).toBe(takes);
      expect(
        responseAt(route, 422)?.content['application/json'].examples.IDEMPOTENCY_KEY_REUSED !== undefined,
        operation,
      ).toBe(takes);
    }
    // Each its own example key: example-driven tools replay a shown key with other bodies.
    const keys = entries.flatMap(([, route]) =>
      operationOf(route)
        .parameters.filter(header('IdempotencyKey'))
        .map((p: any) => p.schema.examples[0]),
    );
    expect(keys.length).toBeGreaterThan(10);
    expect(new Set(keys).size).toBe(keys.length);
    expect(trafficOf('createAppointment', { ...routes.createAppointment, idempotent: false })).toEqual({
      rateLimited: true,
      idempotent: false,
    });
    expect(trafficOf('getHealth', { ...routes.getHealth, rateLimited: true })).toEqual({
      rateLimited: true,
      idempotent: false,
    });
  });

  it('states the If-Match forms the server takes as a pattern', () => {
    const pattern = new RegExp(doc.components.parameters.IfMatch.schema.pattern);
    for (const ok of ['"3"', 'W/"3"', '3', '*', ' "12" ']) expect(pattern.test(ok), ok).toBe(true);
    for (const bad of ['"3', 'v3', '"a"', 'W/', '']) expect(pattern.test(bad), bad).toBe(false);
  });
});

// GET /v1/openapi.json through the HTTP chain: test/integration/openapi-endpoint.test.ts.
