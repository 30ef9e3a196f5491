/**
 * The workers table: every background function of the event pipeline (API reference, webhooks and events), its
 * trigger and what it may touch. Like the route table it is plain data with no CDK or SDK imports:
 * the CDK stack builds one Lambda (and its queue, stream mapping or schedule) per row, and the local
 * server runs the same modules from the same rows.
 */
import type { SecretName } from '../crypto/named-secret';
import type { PhotoAccess } from '../http/route';
import type { TableReads, TableWrites } from '../db/table-writes';
import { PHOTO_OBJECT_PREFIX } from '../domain/photos';
import { streamFilterPatterns, type StreamChange } from './stream-filter';

export type WorkerTrigger =
  /**
   * The table's stream (NEW_AND_OLD_IMAGES). The handler answers Powertools' partial batch
   * response; failing batches are bisected and retried `maxRetries` times, then the records'
   * coordinates go to the stream's failure queue.
   */
  | {
      kind: 'stream';
      batchSize?: number;
      maxRetries?: number;
      maxRecordAgeSeconds?: number;
      /** The mapping's IteratorAge (age of the newest record handed over) above which the stage alarms. */
      iteratorAgeAlarmSeconds?: number;
      /**
       * The item kinds (`entity` tags) the worker acts on: its mapping's FilterCriteria
       * (./stream-filter.ts), so no other record invokes it. Exactly the kinds its decoder asks
       * for (test/unit/stream-filter.test.ts).
       */
      entities: readonly string[];
      /** Kinds the worker acts on only for some changes (the rest invoke nothing): ./stream-filter.ts. */
      changesOf?: Readonly<Record<string, readonly StreamChange[]>>;
    }
  /**
   * An SQS queue of that name, created for this worker with a dead-letter queue that takes a
   * message after `maxReceiveCount` receives. `visibilityTimeoutSeconds` is the queue's default
   * (at least the function's timeout); a handler may set a longer one on a message to retry later.
   * `maxConcurrency` is the mapping's ScalingConfig.MaximumConcurrency (2-1000): the most
   * invocations its pollers run at once, which bounds a worker without reserved concurrency.
   */
  | {
      kind: 'queue';
      queue: string;
      batchSize?: number;
      visibilityTimeoutSeconds?: number;
      maxReceiveCount?: number;
      maxConcurrency?: number;
    }
  | { kind: 'schedule'; everyMinutes: number }
  /**
   * An object created in the photos bucket under `prefix`: S3's notification through EventBridge
   * (the bucket sends its events to the account's default bus; a rule there invokes the worker,
   * asynchronously, with retries and a dead-letter queue). Locally the object store runs the worker
   * after each PUT it accepted, before answering it (infra/local/photo-arrivals.ts).
   */
  | { kind: 'objectCreated'; prefix: string };

export interface WorkerDef {
  trigger: WorkerTrigger;
  /** Handler module (exports `handler`), relative to the project root, without extension. */
  module: `functions/workers/${string}`;
  binds: {
    /** TABLE_NAME and these writes (its role is generated from them). */
    writes: TableWrites;
    /** The partition families it reads (GetItem, BatchGetItem, Query; lib/db/keys.ts), its role's only reads. */
    reads: TableReads;
    /** EVENT_BUS_NAME and events:PutEvents on the stage's bus. */
    bus?: true;
    /** `CURSOR_SECRET_ARN` / `WEBHOOK_SECRET_ARN` and the grant to read that secret (lib/crypto/named-secret.ts). */
    secrets?: readonly SecretName[];
    /** Queues (of other workers' triggers) it sends to: `<NAME>_QUEUE_URL` and sqs:SendMessage. */
    queues?: readonly string[];
    /** PHOTOS_BUCKET and these object actions on the photos prefix (as a route's `touches.photos`). */
    photos?: readonly PhotoAccess[];
  };
  /**
   * Caps concurrent executions (and so the pressure on receivers and the account). Never on a
   * stream worker: its mapping runs one batch per shard at once, and a cap below the shard count
   * throttles the shards over it (their records age until they expire).
   */
  reservedConcurrency?: number;
  timeoutSeconds?: number;
  description: string;
}

/**
 * What offering freed time takes (lib/use-cases/waitlist-offers.ts): the hold's placement (its
 * reads and claims), the entry, the freed time and the offer item; a hold's expiry armed.
 */
const WAITLIST_OFFER_WRITES: TableWrites = {
  holds: ['put'],
  claims: ['put', 'update'],
  waitlist: ['put'],
  waitlistFreed: ['put'],
  waitlistOffers: ['put'],
  waitlistDue: ['put'],
};
// An offer's hold names no room, equipment or series (lib/use-cases/waitlist-offers.ts): none is read.
const WAITLIST_OFFER_READS: TableReads = [
  'claims',
  'clients',
  'holds',
  'practice',
  'providers',
  'services',
  'waitingByService',
  'waitlist',
  'waitlistFreed',
  'waitlistInUse',
  'waitlistOffers',
];

export const defineWorkers = <T extends Record<string, WorkerDef>>(workers: T): T => workers;

export const workers = defineWorkers({
  /** The outbox relay: table changes become domain events on the bus. Handlers never publish themselves. */
  streamToBus: {
    trigger: {
      kind: 'stream',
      batchSize: 100,
      maxRetries: 5,
      maxRecordAgeSeconds: 24 * 60 * 60,
      // The event sources (lib/events/mappings.ts): appointments also arm reminders, a recalled lot fans out.
      entities: [
        'APPOINTMENT',
        'CLIENT',
        'CLIENT_PLAN',
        'CONSENT',
        'CONTACT_CONSENT',
        'LOT',
        'LOT_RECALL_NOTICE',
        'LOW_STOCK_EVENT',
        'PAYMENT',
        'PLAN_LEDGER',
        'REMINDER',
        'TREATMENT_REVISION',
        'WAITLIST_OFFER',
      ],
    },
    module: 'functions/workers/streamToBus',
    // Writes too: it arms reminders (due items) from appointment changes.
    // The cursor secret seals an online booking's manage token into its appointment.created.
    // Reads a practice's webhook subscriptions (one Query per batch) and its practice.
    // A recalled lot: its exposures (a Query) and exposed clients, and a notice per client (decision 0027).
    // Every event it makes is kept in the practice's event feed: the head, the places, the ids (decision 0031).
    binds: {
      writes: { eventFeed: ['put'], eventIds: ['put'], lotRecallNotices: ['put'], remindersDue: ['put'] },
      reads: ['clients', 'eventFeed', 'eventIds', 'lotExposures', 'practice', 'webhooks'],
      bus: true,
      secrets: ['cursor'],
    },
    // No reserved concurrency: one batch per shard at once (ParallelizationFactor 1) is the bound.
    timeoutSeconds: 30,
    description: 'DynamoDB stream -> domain events on the bus (PutEvents)',
  },
  /** The table stream -> report counters (exactly once: stream markers and a ledger in each transaction). */
  aggregateReports: {
    trigger: {
      kind: 'stream',
      batchSize: 100,
      maxRetries: 10,
      maxRecordAgeSeconds: 24 * 60 * 60,
      // The report sources (lib/db/report-sources.ts).
      entities: ['APPOINTMENT', 'PAYMENT', 'PLAN_SALE', 'PRACTICE', 'STOCK_ADJUSTMENT'],
    },
    module: 'functions/workers/aggregateReports',
    binds: {
      writes: {
        practice: ['check'],
        reportDays: ['update'],
        reportGeneration: ['check'],
        reportLedger: ['put'],
        reportClientVisits: ['put'],
      },
      reads: ['practice', 'reportClientVisits', 'reportGeneration', 'reportLedger'],
    },
    timeoutSeconds: 60,
    description: 'DynamoDB stream -> report day counters',
  },
  /** One event -> one delivery message per matching, enabled subscription (delivery log entry `pending`). */
  fanOut: {
    // At most 5 batches of 10 events at once: one Query and up to 25 SendMessage each.
    trigger: {
      kind: 'queue',
      queue: 'events',
      batchSize: 10,
      visibilityTimeoutSeconds: 180,
      maxReceiveCount: 5,
      maxConcurrency: 5,
    },
    module: 'functions/workers/fanOut',
    binds: { writes: { webhookDeliveries: ['put'] }, reads: ['webhooks'], queues: ['deliveries'] },
    timeoutSeconds: 30,
    description: 'Bus events -> one delivery per matching webhook subscription',
  },
  /**
   * Signs and POSTs one delivery. A failed attempt sends the next one to the same queue with the
   * contract's backoff (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, each ±20%) as DelaySeconds when it is
   * at most SQS's 15 minutes; a longer wait is a due item in its minute's partition, written with
   * the log, for sweepWebhookRetries (docs/decisions/0021). A message that keeps failing to process
   * moves to the dead-letter queue.
   */
  deliverWebhook: {
    trigger: { kind: 'queue', queue: 'deliveries', batchSize: 5, visibilityTimeoutSeconds: 180, maxReceiveCount: 7 },
    module: 'functions/workers/deliverWebhook',
    binds: {
      writes: { webhookDeliveries: ['put'], webhookRetriesDue: ['put'], webhooks: ['update'] },
      // Its subscription and delivery only: it POSTs to customer URLs, so it reads nothing else.
      reads: ['webhookDeliveries', 'webhooks'],
      secrets: ['webhook'],
      queues: ['deliveries'],
    },
    reservedConcurrency: 10,
    timeoutSeconds: 30,
    description: 'POST one webhook delivery (Standard Webhooks signature); the next attempt re-enqueued with its delay',
  },
  /** Emits `appointment.reminder` through the table (a reminder item the stream relays), once per appointment. */
  sweepReminders: {
    trigger: { kind: 'schedule', everyMinutes: 1 },
    module: 'functions/workers/sweepReminders',
    binds: {
      writes: { appointments: ['check', 'put'], reminderSweep: ['put'], remindersDue: ['delete'] },
      reads: ['appointments', 'reminderSweep', 'remindersDue'],
    },
    // One sweep at a time: an overrunning sweep never races the next minute's.
    reservedConcurrency: 1,
    timeoutSeconds: 50,
    description: 'Every minute: due appointment reminders',
  },
  /**
   * The waitlist (docs/decisions/0032): time freed by an appointment (cancel, no-show, delete,
   * move) or a released hold is offered to the oldest fitting entry as a hold, placed by the holds'
   * own placement; a new hold's expiry is armed for sweepWaitlist. Idempotent per record.
   */
  waitlistOffers: {
    trigger: {
      kind: 'stream',
      batchSize: 100,
      maxRetries: 5,
      maxRecordAgeSeconds: 24 * 60 * 60,
      // lib/use-cases/waitlist-freed.ts WAITLIST_STREAM_KINDS. A new appointment frees nothing, and
      // a hold's expiry is swept (its item's removal a day later does nothing): neither invokes it.
      entities: ['APPOINTMENT', 'HOLD'],
      changesOf: { APPOINTMENT: ['MODIFY', 'REMOVE'], HOLD: ['INSERT', 'MODIFY'] },
    },
    module: 'functions/workers/waitlistOffers',
    binds: { writes: WAITLIST_OFFER_WRITES, reads: WAITLIST_OFFER_READS },
    timeoutSeconds: 60,
    description: 'DynamoDB stream -> waitlist offers of freed time (holds), hold expiries armed',
  },
  /** Every minute: expired offers move on, expired plain holds' time is offered, expired entries are stored so. */
  sweepWaitlist: {
    trigger: { kind: 'schedule', everyMinutes: 1 },
    module: 'functions/workers/sweepWaitlist',
    binds: {
      // Expiries are armed by the stream worker from each new hold, never by the sweep.
      writes: { ...WAITLIST_OFFER_WRITES, waitlistDue: ['delete'], waitlistSweep: ['put'] },
      reads: [...WAITLIST_OFFER_READS, 'waitlistDue', 'waitlistSweep'],
    },
    // One sweep at a time (concurrent ones are safe: every offer and expiry is conditioned on the versions read).
    reservedConcurrency: 1,
    timeoutSeconds: 50,
    description: 'Every minute: expired waitlist offers moved on, expired holds offered, expired entries',
  },
  /**
   * Renews memberships, ends those cancelled at term end and expires packages on their
   * practice-local date (lib/use-cases/plan-renewals.ts, docs/decisions/0026): one Query per hour
   * partition of the due index since its checkpoint, then each due plan's partition and ONE
   * transaction per plan (its update on the version read, balances, ledger entries).
   */
  sweepPlans: {
    trigger: { kind: 'schedule', everyMinutes: 60 },
    module: 'functions/workers/sweepPlans',
    binds: {
      // A membership's end moves its client's membership fields (lib/domain/membership.ts).
      writes: {
        clientPlans: ['check', 'update'],
        planLedger: ['put'],
        planSweep: ['put'],
        clients: ['check', 'update'],
        clientSearch: ['put'],
      },
      // The due index, each due plan's partition, the plan sold (its benefits and terms), the
      // practice's zone; for a membership's end, its client and the client's other plans.
      reads: ['clientPlans', 'planSweep', 'plans', 'plansDue', 'practice', 'clients', 'clientPlansByClient'],
    },
    // One sweep at a time (concurrent ones are safe: each plan's change commits once).
    reservedConcurrency: 1,
    timeoutSeconds: 300,
    description: 'Every hour: membership renewals, ends of terms and package expiry',
  },
  /**
   * An uploaded photo is confirmed when it arrives, not when it is first read (decision 0028): its
   * pending item becomes ready and its object is re-tagged confirmed, so the orphan lifecycle rule
   * leaves it; an object whose photo is gone (deleted, client erased) is deleted. Idempotent.
   */
  confirmPhotoUploads: {
    trigger: { kind: 'objectCreated', prefix: PHOTO_OBJECT_PREFIX },
    module: 'functions/workers/confirmPhotoUploads',
    binds: { writes: { photos: ['update'] }, reads: ['photos'], photos: ['confirm', 'delete'] },
    timeoutSeconds: 30,
    description: 'Photo object created -> its photo ready and the object confirmed (or an orphan deleted)',
  },
  /**
   * Sends the webhook retries that fell due (waits past SQS's 15 minutes, lib/webhooks/retry-sweep.ts)
   * to the `deliveries` queue: one Query per minute partition; takes each due item (update), deletes it once sent.
   */
  sweepWebhookRetries: {
    trigger: { kind: 'schedule', everyMinutes: 1 },
    module: 'functions/workers/sweepWebhookRetries',
    binds: {
      writes: { webhookRetriesDue: ['update', 'delete'], webhookRetrySweep: ['put'] },
      // Its checkpoint, the due minutes' items and the pending log entries the jobs are rebuilt from.
      reads: ['webhookDeliveries', 'webhookRetriesDue', 'webhookRetrySweep'],
      queues: ['deliveries'],
    },
    // One sweep at a time (concurrent ones are safe, each due item is taken by one).
    reservedConcurrency: 1,
    timeoutSeconds: 50,
    description: 'Every minute: webhook retries due (waits past 15 minutes) to the deliveries queue',
  },
});

/** Env var holding a queue's URL for its senders, e.g. `deliveries` -> `DELIVERIES_QUEUE_URL`. */
export const queueUrlEnv = (queue: string) => `${queue.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_QUEUE_URL`;

/** Env var holding the bus name for workers with `binds.bus`. */
export const EVENT_BUS_ENV = 'EVENT_BUS_NAME';

/** The queues the workers table declares (each is the trigger of exactly one worker). */
export function workerQueues(table: Readonly<Record<string, WorkerDef>> = workers) {
  const queues = new Map<string, { worker: string; trigger: Extract<WorkerTrigger, { kind: 'queue' }> }>();
  for (const [worker, def] of Object.entries(table)) {
    if (def.trigger.kind !== 'queue') continue;
    const clash = queues.get(def.trigger.queue);
    if (clash) throw new Error(`Queue "${def.trigger.queue}" triggers both ${clash.worker} and ${worker}`);
    queues.set(def.trigger.queue, { worker, trigger: def.trigger });
  }
  return queues;
}

/**
 * A worker's settings with the defaults its row leaves out, in one place: the CDK stack deploys
 * these, and the local pipeline runs with the same (test/integration/local-wiring.test.ts checks
 * them against the synthesized template).
 */
export const workerTimeoutSeconds = (def: WorkerDef) => def.timeoutSeconds ?? 30;

/** A stream trigger's mapping: records per batch, retries of a failing batch, the oldest record handed over. */
export const streamMappingOf = (trigger: Extract<WorkerTrigger, { kind: 'stream' }>) => ({
  batchSize: trigger.batchSize ?? 100,
  maxRetries: trigger.maxRetries ?? 5,
  maxRecordAgeSeconds: trigger.maxRecordAgeSeconds ?? 24 * 60 * 60,
  iteratorAgeAlarmSeconds: trigger.iteratorAgeAlarmSeconds ?? 10 * 60,
  filters: streamFilterPatterns(trigger.entities, trigger.changesOf),
});

/**
 * A queue trigger's queue and mapping. The queue hides a received message for six times the
 * function's timeout unless the row says otherwise (a Lambda SQS mapping needs at least one).
 */
export const queueSettingsOf = (def: WorkerDef & { trigger: Extract<WorkerTrigger, { kind: 'queue' }> }) => ({
  batchSize: def.trigger.batchSize ?? 10,
  visibilityTimeoutSeconds: def.trigger.visibilityTimeoutSeconds ?? 6 * workerTimeoutSeconds(def),
  maxReceiveCount: def.trigger.maxReceiveCount ?? 5,
  // Never more pollers than reserved executions: a throttled receive would count as an attempt.
  maxConcurrency:
    def.trigger.maxConcurrency ?? (def.reservedConcurrency ? Math.max(2, def.reservedConcurrency) : undefined),
});
