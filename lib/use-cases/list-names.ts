import { BoundedCache } from '../cache';
import { config } from '../config';
import { batchGetEntities, type Entities } from '../db/batch';

/** What an appointment list page shows of its client, service and provider. */
interface NamesOf {
  CLIENT: { first_name: string | null; last_name: string | null };
  SERVICE: { name: string | null; duration_minutes: number | null };
  PROVIDER: { full_name: string | null };
}
type Named = keyof NamesOf;

const namesFrom = (found: Entities, type: Named, id: string): NamesOf[Named] => {
  if (type === 'CLIENT') {
    const client = found.get('CLIENT', id);
    return { first_name: client?.first_name ?? null, last_name: client?.last_name ?? null };
  }
  if (type === 'SERVICE') {
    const service = found.get('SERVICE', id);
    return { name: service?.name ?? null, duration_minutes: service?.duration_minutes ?? null };
  }
  return { full_name: found.get('PROVIDER', id)?.full_name ?? null };
};

/** At most this many names a container keeps (a name is well under 200 bytes). */
const MAX_NAMES = 5000;

/** The names this container read lately, by practice, type and id, each for LIST_NAMES_TTL_MS. */
const recent = new BoundedCache<string, NamesOf[Named]>({ max: MAX_NAMES });

export interface ListNames {
  get<K extends Named>(type: K, id: string): NamesOf[K];
}

/**
 * The names a page of the appointment list nests (a client's first and last name, a service's
 * name and duration, a provider's full name): those this container read in the last
 * LIST_NAMES_TTL_MS (default 60 s) from its cache, the rest in ONE eventually consistent
 * BatchGetItem. A day's list polled by the desk reads its names about once a minute, not with
 * every poll. So a list page's names may trail a rename by up to the TTL (plus the second or so
 * of an eventually consistent read); the appointment's own GET reads them fresh, and the list's
 * appointments themselves (times, status, which client) are never cached.
 */
export async function listNames(
  medspaId: string,
  refs: ReadonlyArray<{ type: Named; id: string }>,
): Promise<ListNames> {
  const keyOf = (type: Named, id: string) => `${medspaId}|${type}|${id}`;
  const names = new Map<string, NamesOf[Named]>();
  const misses = new Map<string, { type: Named; id: string }>();
  for (const ref of refs) {
    const key = keyOf(ref.type, ref.id);
    if (names.has(key) || misses.has(key)) continue;
    const cached = recent.get(key);
    if (cached) names.set(key, cached);
    else misses.set(key, ref);
  }
  if (misses.size > 0) {
    const found = await batchGetEntities(medspaId, [...misses.values()], { consistent: false });
    const ttlMs = config().LIST_NAMES_TTL_MS;
    for (const [key, { type, id }] of misses) {
      const read = namesFrom(found, type, id);
      names.set(key, read);
      recent.set(key, read, ttlMs);
    }
  }
  return { get: <K extends Named>(type: K, id: string) => names.get(keyOf(type, id)) as NamesOf[K] };
}
