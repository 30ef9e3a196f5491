import { PATH_METHODS } from './path-methods.generated';

export const METHOD_ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Each path template as a pattern (`{param}` one segment), with its methods. */
const patterns = PATH_METHODS.map(([path, methods]) => ({
  pattern: new RegExp(
    `^${path
      .split('/')
      .map((segment) => (/^\{\w+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/')}/?$`,
  ),
  methods,
}));

/** The methods the route table takes on a request path (what a CORS preflight lists); none for an unknown path. */
export function methodsOfPath(path: string): string[] {
  const methods = new Set<string>();
  for (const { pattern, methods: of } of patterns) if (pattern.test(path)) for (const method of of) methods.add(method);
  return METHOD_ORDER.filter((method) => methods.has(method));
}
