import { callableRoutes } from '../http/route';
import { routes } from './index';

const METHOD_ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Each path template as a pattern, with the methods its routes take. */
const byPath = new Map<string, { pattern: RegExp; methods: string[] }>();
for (const [, route] of callableRoutes(routes)) {
  const entry = byPath.get(route.path) ?? {
    pattern: new RegExp(`^${route.path.split('/').map((segment) => (/^\{\w+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/')}/?$`),
    methods: [],
  };
  entry.methods.push(route.method);
  byPath.set(route.path, entry);
}

/** The methods the route table takes on a request path (what a CORS preflight lists); none for an unknown path. */
export function methodsOfPath(path: string): string[] {
  const methods = new Set<string>();
  for (const { pattern, methods: of } of byPath.values()) if (pattern.test(path)) for (const method of of) methods.add(method);
  return METHOD_ORDER.filter((method) => methods.has(method));
}
