/**
 * Where a cold start's time goes, by source: a CPU profile of a cold start (node --cpu-prof) with
 * the bundle's source map beside it, self time summed per npm package (our code per top folder),
 * with Node's own work (compiling the bundle, loading built-ins) and idle time (waiting on I/O)
 * named apart. Used by `npm run bench:cold` with BENCH_COLD_PROFILE set.
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
const packageOf = (source: string) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source)?.[1] ?? /\/((?:lib|functions|infra)\/[^/]+)/.exec(source)?.[1] ?? source;

/** Self milliseconds per source package (bundle code) or category (Node, idle, GC), largest first. */
export function profileBySource(profileFile: string, bundleFile: string): Array<[string, number]> {
  const profile = JSON.parse(readFileSync(profileFile, 'utf8')) as Profile;
  const map = new SourceMap(JSON.parse(readFileSync(`${bundleFile}.map`, 'utf8')));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const totals = new Map<string, number>();
  for (const node of profile.nodes) {
    const us = selfUs.get(node.id);
    if (!us) continue;
    const { url, lineNumber, columnNumber, functionName } = node.callFrame;
    let where: string;
    if (url.endsWith('.mjs') && url.includes('functions/')) {
      const entry = map.findEntry(lineNumber, columnNumber) as { originalSource?: string };
      where = entry.originalSource ? packageOf(entry.originalSource) : 'bundle (unmapped)';
    } else if (!url) where = functionName.startsWith('(') ? functionName : `native ${functionName}`;
    else where = url.startsWith('node:') ? `node ${url.slice(5).split('/')[0]}` : `node internals`;
    totals.set(where, (totals.get(where) ?? 0) + us / 1000);
  }
  return [...totals].sort((a, b) => b[1] - a[1]);
}
