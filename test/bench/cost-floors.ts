/**
 * The floor of each operation of `npm run bench:cost`: the least DynamoDB units, round trips and
 * pipeline work that could do its job and keep its guarantees, written out by hand. What every
 * floor keeps: one API request and one invocation (the answer, response bytes as measured: the
 * contract's), Lambda's platform log lines and the access log line but no log line of ours, the
 * rate-limit bucket writes (the limits are part of the contract: 1 WRU for a credential, 2 for a
 * publishable key with its per-IP bucket), and for a change, the outbox: one stream batch that
 * the relay turns into its contract events (one EventBridge entry each, one message through the
 * events queue to fan-out, whose Query of subscriptions is 0.5 RRU).
 *
 * And what the contract has asked since the floors were first written, at the least each could
 * cost: a change's audit entry in its own transaction (section 10: every non-GET call, so it
 * commits with the change or not at all: <= 1 KB, 2 WRU); each event kept for the event feed
 * (section 15: in order and once, so written in a transaction with its place: an event with its
 * resource is 1-2 KB, 4 WRU); one report counter per change (an ADD on its day's item, 1 WRU:
 * reports are bounded reads by our rules, so counted as changes happen, never summed at read time).
 */
import { billedMs, queryReadUnits, SDK_CPU_MS_PER_CALL, type OpUsage } from './cost-model';

/**
 * One appointment's entry on an index holding only what the list shows (its keys, client,
 * service, provider, duration and status: about 370 bytes with our ids), read on the day's index.
 */
const LIST_ENTRY_BYTES = 370;
/** Appointments on the day the staff list (the workload's 40). */
const DAY_APPOINTMENTS = 40;

interface FloorSpec {
  readUnits: number;
  writeUnits: number;
  /** Rounds of DynamoDB calls of the request, and the calls. */
  steps: number;
  calls: number;
  /** Contract events the change emits (0 for a read). */
  events: number;
  /** Webhook deliveries (subscribed create). */
  deliveries?: number;
  kmsSigns?: number;
}

/** A change's audit entry in its transaction, and its report counter (see above). */
const CHANGE_RECORDS_WRU = 2 + 1;
/** One event kept in the feed, in a transaction with its place (see above). */
const FEED_EVENT_WRU = 4;

const floor =
  (spec: FloorSpec) =>
  (measured: OpUsage): { usage: OpUsage } => {
    // Events go to the bus only when a subscription takes them (the workload has none; the relay
    // checks with its one Query, 0.5 RRU): create+webhook's.
    const published = spec.deliveries ? spec.events : 0;
    return {
      usage: {
        apiRequests: 1,
        readUnits: spec.readUnits + (spec.events ? 0.5 : 0) + (spec.deliveries ?? 0) * 1,
        writeUnits:
          spec.writeUnits +
          (spec.events ? CHANGE_RECORDS_WRU + spec.events * FEED_EVENT_WRU : 0) +
          (spec.deliveries ?? 0) * 2,
        // What it stores is the contract's (the floor bill's storage is the measured one).
        storageBytes: measured.storageBytes,
        streamBatches: spec.events ? 1 : 0,
        streamRecords: spec.events,
        handlerMs: billedMs(spec.steps + (spec.kmsSigns ?? 0), spec.calls * SDK_CPU_MS_PER_CALL),
        // The relay's one record, and fan-out's Query (and a delivery's read and log write).
        streamWorkerMs: spec.events ? billedMs(0, SDK_CPU_MS_PER_CALL) : 0,
        queueMessages: published + (spec.deliveries ?? 0),
        queueWorkerMs: published ? billedMs(1, SDK_CPU_MS_PER_CALL) + (spec.deliveries ?? 0) * billedMs(2, 2) : 0,
        eventBridgeEntries: published,
        logBytes: 0,
        responseBytes: measured.responseBytes,
        webhookBytes: measured.webhookBytes,
        kmsSigns: spec.kmsSigns ?? 0,
      },
    };
  };

// A create: read the client, service and provider strongly (3 RRU; the claim buckets it checks
// come back with them: a missing bucket is 1 RRU more each, left out here as the floor needs only
// the ones that exist), then one transaction: the appointment (<= 2 KB: 4 WRU), its two index
// entries (2 x 2 WRU, not transactional... but 2 KB each) and its narrow list entry (the list's
// floor reads it: 1 WRU), its provider's hour bucket (2 WRU); + the credential's rate-limit bucket
// (1 WRU); + its reminder's due entry (section 8: one item a sweep finds by minute, 1 WRU). Two round trips.
const CREATE: FloorSpec = { readUnits: 3, writeUnits: 4 + 4 + 1 + 2 + 1 + 1, steps: 2, calls: 3, events: 1 };

export const FLOORS: Record<string, (measured: OpUsage) => { usage: OpUsage }> = {
  create: floor(CREATE),
  // The key's record rides in the create's transaction (<= 1 KB: 2 WRU) with its answer.
  'create+key': floor({ ...CREATE, writeUnits: CREATE.writeUnits + 2 }),
  // One eventually consistent Query of the day's list entries on a narrow time index; the rate limit.
  'list 1 day': floor({
    readUnits: queryReadUnits(DAY_APPOINTMENTS * LIST_ENTRY_BYTES, false),
    writeUnits: 1,
    steps: 1,
    calls: 2,
    events: 0,
  }),
  // A poll that finds the page unchanged reads what the full one reads (its ETag is of them).
  'list 1 day (unchanged)': floor({
    readUnits: queryReadUnits(DAY_APPOINTMENTS * LIST_ENTRY_BYTES, false),
    writeUnits: 1,
    steps: 1,
    calls: 2,
    events: 0,
  }),
  // One strongly consistent GetItem; the rate limit.
  'get client': floor({ readUnits: 1, writeUnits: 1, steps: 1, calls: 2, events: 0 }),
  // The service and its 3 providers (eventual reads: 4 x 0.5), then one eventually consistent
  // Query per provider of its claim buckets in the range (each under 4 KB: 0.5); the rate limit.
  'search (staff)': floor({ readUnits: 2 + 3 * 0.5, writeUnits: 1, steps: 2, calls: 5, events: 0 }),
  // The same, with the publishable key's two buckets (the key's and the visitor's IP's).
  'search (public)': floor({ readUnits: 2 + 3 * 0.5, writeUnits: 2, steps: 2, calls: 6, events: 0 }),
  // A create, plus the new client (<= 1 KB, 2 WRU), the email's index item (2 WRU) and the
  // client's count of active online bookings (the per-client limit is a condition: 2 WRU) in its
  // transaction, one search entry for the client (section 4's `q`: an index entry, 1 WRU), the
  // email lookup (a Query, 0.5), the required key's record (2), two buckets; its two events
  // (appointment.created, client.created).
  'public booking': floor({
    ...CREATE,
    readUnits: CREATE.readUnits + 0.5,
    writeUnits: CREATE.writeUnits - 1 + 2 + 2 + 2 + 1 + 2 + 2,
    events: 2,
  }),
  // Read the appointment (1 RRU); one transaction: the appointment (4), its two index entries
  // (2 x 2) and its list entry (its status is listed: 1), the released bucket (2); the rate limit
  // (1); its two events (appointment.cancelled, appointment.status_changed).
  cancel: floor({ readUnits: 1, writeUnits: 4 + 4 + 1 + 2 + 1, steps: 2, calls: 3, events: 2 }),
  // A keyed create whose event reaches one subscription: one delivery more (its job through the
  // deliveries queue, the subscription read (1 RRU), its log entry (2 WRU), the POST).
  'create+webhook': floor({ ...CREATE, writeUnits: CREATE.writeUnits + 2, deliveries: 1 }),
  // The credential by client_id (an eventual Query on its index, 0.5), kms:Sign, the IP's bucket.
  token: floor({ readUnits: 0.5, writeUnits: 1, steps: 1, calls: 2, events: 0, kmsSigns: 1 }),
};
