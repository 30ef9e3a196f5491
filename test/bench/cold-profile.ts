/**
 * Where a cold start's (or warm handler's) time goes, by source: a CPU profile (node --cpu-prof,
 * or the inspector's profiler) with the bundle's source map beside it, self time summed per npm
 * package (our code per top folder) or per source function, with Node's own work (compiling the
 * bundle, loading built-ins) and idle time (waiting on I/O) named apart. Used by `npm run
 * bench:cold` with BENCH_COLD_PROFILE set and `npm run bench:warm` with BENCH_WARM_PROFILE.
 */
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** npm package of a source path, or for ours its folder (e.g. `lib/schemas`). */
const packageOf = (source: string) =>
  /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source)?.[1] ??
  /\/((?:lib|functions|infra)\/[^/]+)/.exec(source)?.[1] ??
  source;
/** A source function: its file (from the package, or ours from the project root), line and name. */
const functionOf = (source: string, line: number, name: string) =>
  `${/(?:node_modules\/|\/(?=(?:lib|functions|infra)\/))(.*)$/.exec(source)?.[1] ?? source}:${line + 1} ${name || '(anonymous)'}`;

/**
 * Self milliseconds per source package (bundle code) or category (Node, idle, GC), largest first;
 * `by: 'function'` names the bundle's functions instead of their packages.
 */
export function profileBySource(
  profileFile: string,
  bundleFile: string,
  by: 'package' | 'function' = 'package',
): Array<[string, number]> {
  const profile = JSON.parse(readFileSync(profileFile, 'utf8')) as Profile;
  const map = new SourceMap(JSON.parse(readFileSync(`${bundleFile}.map`, 'utf8')));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const totals = new Map<string, number>();
  for (const node of profile.nodes) {
    const us = selfUs.get(node.id);
    if (!us) continue;
    const { url, lineNumber, columnNumber, functionName } = node.callFrame;
    let where: string;
    if (url.endsWith('.mjs') && url.includes('functions/')) {
      const entry = map.findEntry(lineNumber, columnNumber) as {
        originalSource?: string;
        originalLine?: number;
        name?: string;
      };
      if (!entry.originalSource) where = 'bundle (unmapped)';
      else
        where =
          by === 'package'
            ? packageOf(entry.originalSource)
            : functionOf(entry.originalSource, entry.originalLine ?? 0, entry.name ?? functionName);
    } else if (!url) where = functionName.startsWith('(') ? functionName : `native ${functionName}`;
    else if (url.startsWith('node:')) where = `node ${url.slice(5).split('/')[0]}`;
    // In a warm profile, the bench's own code around the handler; in a cold one, Node's loaders.
    else where = url.startsWith('file:') ? 'outside the bundle' : 'node internals';
    totals.set(where, (totals.get(where) ?? 0) + us / 1000);
  }
  return [...totals].sort((a, b) => b[1] - a[1]);
}
