/**
 * Every key format of the table, built here and nowhere else. The practice id leads every
 * partition key, so no query can reach across practices. Ids inside keys are server-made UUIDs
 * (never names, emails or other PII).
 */
export interface Key {
  pk: string;
  sk: string;
}

const practicePrefix = (medspaId: string) => `P#${medspaId}`;

/** The practice id of a practice-led partition key (an old item's only record of it). */
export const practiceIdOf = (pk: string) => pk.slice(2, pk.indexOf('#', 2) < 0 ? undefined : pk.indexOf('#', 2));

/** The practice's own settings item: read on every authenticated call (cached). */
export const practiceKey = (medspaId: string): Key => ({ pk: practicePrefix(medspaId), sk: 'PRACTICE' });

/**
 * Entity collections: one partition per practice and type, the id as sort key.
 * Get by id = GetItem; list = Query on the partition (ordered by id, stable for cursors).
 */
export type EntityType =
  | 'CLIENT'
  | 'PROVIDER'
  | 'ROOM'
  | 'EQUIPMENT'
  | 'SERVICE'
  | 'APPOINTMENT'
  | 'PRODUCT'
  | 'PAYMENT'
  | 'WEBHOOK'
  | 'CRED'
  | 'PKEY'
  | 'PLAN'
  | 'LOT'
  | 'PHOTO'
  | 'FORM_TEMPLATE'
  | 'FORM_SUBMISSION'
  | 'WAITLIST';

export const collectionPk = (medspaId: string, type: EntityType) => `${practicePrefix(medspaId)}#${type}`;

export const entityKey = (medspaId: string, type: EntityType, id: string): Key => ({
  pk: collectionPk(medspaId, type),
  sk: id,
});

/** Credential lookup by client_id alone (token exchange of a client_id that does not encode its practice). */
export const credentialLookupIndexKey = (clientId: string) => ({ gsi2pk: `CLIENTID#${clientId}`, gsi2sk: 'CRED' });

/** Audit entries: one partition per practice, sorted by time, so `from..to` is one Query (a practice writes far below a partition's limits). */
export const auditPk = (medspaId: string) => `${practicePrefix(medspaId)}#AUDIT`;
export const auditKey = (medspaId: string, at: string, requestId: string): Key => ({
  pk: auditPk(medspaId),
  sk: `${at}#${requestId}`,
});

/**
 * An appointment's own partition: the appointment item, its treatment record and its reminder
 * requests, read together by one Query. One partition per appointment keeps no practice-wide
 * hot partition for the busiest entity.
 */
export const appointmentPk = (medspaId: string, appointmentId: string) =>
  `${practicePrefix(medspaId)}#APPOINTMENT#${appointmentId}`;
export const appointmentKey = (medspaId: string, appointmentId: string): Key => ({
  pk: appointmentPk(medspaId, appointmentId),
  sk: 'APPOINTMENT',
});
export const treatmentRecordKey = (medspaId: string, appointmentId: string): Key => ({
  pk: appointmentPk(medspaId, appointmentId),
  sk: 'TREATMENT',
});
/** A signed treatment record's revision n (zero-padded: revisions list oldest first). */
export const TREATMENT_REVISION_PREFIX = 'TREATMENT_REVISION#';
export const treatmentRevisionKey = (medspaId: string, appointmentId: string, revision: number): Key => ({
  pk: appointmentPk(medspaId, appointmentId),
  sk: `${TREATMENT_REVISION_PREFIX}${String(revision).padStart(6, '0')}`,
});
export const reminderKey = (medspaId: string, appointmentId: string, at: string, eventId: string): Key => ({
  pk: appointmentPk(medspaId, appointmentId),
  sk: `REMINDER#${at}#${eventId}`,
});

/** Appointments by time (gsi1): one partition per practice and UTC month, sorted by start. */
export const appointmentTimeIndexPk = (medspaId: string, utcMonth: string) =>
  `${practicePrefix(medspaId)}#APPTS#${utcMonth}`;
export const appointmentTimeIndexKeys = (medspaId: string, scheduledAt: string, appointmentId: string) => ({
  gsi1pk: appointmentTimeIndexPk(medspaId, scheduledAt.slice(0, 7)),
  gsi1sk: `${scheduledAt}#${appointmentId}`,
});
/** The start and the appointment a gsi1sk of appointmentTimeIndexKeys names (the list's narrow entries keep them only there). */
export const appointmentOfTimeIndexSk = (sk: string): { scheduled_at: string; id: string } => {
  const at = sk.indexOf('#');
  return { scheduled_at: sk.slice(0, at), id: sk.slice(at + 1) };
};

/** A client's appointments by time (gsi2): history, and cancelling the future ones when a client is deleted. */
export const clientAppointmentsIndexPk = (medspaId: string, clientId: string) =>
  `${practicePrefix(medspaId)}#CLIENT_APPTS#${clientId}`;
export const clientAppointmentsIndexKeys = (
  medspaId: string,
  clientId: string,
  scheduledAt: string,
  appointmentId: string,
) => ({
  gsi2pk: clientAppointmentsIndexPk(medspaId, clientId),
  gsi2sk: `${scheduledAt}#${appointmentId}`,
});

/**
 * Client search (`GET /v1/clients?q=`): one item per normalised term per client, found by a Query
 * `begins_with(sk, prefix)`. The one place names, emails and phone digits sit in keys: the items
 * are written, rewritten and erased in the same transaction as their client.
 */
export const clientSearchPk = (medspaId: string) => `${practicePrefix(medspaId)}#CLIENT_SEARCH`;
export const clientSearchKey = (medspaId: string, term: string, clientId: string): Key => ({
  pk: clientSearchPk(medspaId),
  sk: `${term}#${clientId}`,
});

/** A client's signed consents by signing time: the list (newest first) and the appointment detail's `consent_forms`. */
export const consentsPk = (medspaId: string, clientId: string) => `${practicePrefix(medspaId)}#CONSENTS#${clientId}`;
export const consentKey = (medspaId: string, clientId: string, signedAt: string, consentId: string): Key => ({
  pk: consentsPk(medspaId, clientId),
  sk: `${signedAt}#${consentId}`,
});

/**
 * A client's contact consents (section 14): one partition per client holding its immutable
 * changes (`CHANGE#<sequence>`, zero-padded: commit order) and its state (`STATE`, sorting after
 * them), so the newest changes and the state are one descending Query.
 */
export const contactConsentsPk = (medspaId: string, clientId: string) =>
  `${practicePrefix(medspaId)}#CONTACT_CONSENTS#${clientId}`;
export const contactConsentStateKey = (medspaId: string, clientId: string): Key => ({
  pk: contactConsentsPk(medspaId, clientId),
  sk: 'STATE',
});
const CONTACT_CONSENT_CHANGE_PREFIX = 'CHANGE#';
export const contactConsentChangeKey = (medspaId: string, clientId: string, sequence: number): Key => ({
  pk: contactConsentsPk(medspaId, clientId),
  sk: `${CONTACT_CONSENT_CHANGE_PREFIX}${String(sequence).padStart(10, '0')}`,
});

/**
 * The clients whose marketing consent is granted (`GET /v1/clients?consent=`): a sparse partition
 * per practice and consent, one item per client (by id, the clients list's order), put and deleted
 * in the transaction of the change, deleted with the client.
 */
export const consentedClientsPk = (medspaId: string, consent: string) =>
  `${practicePrefix(medspaId)}#CONSENTED#${consent}`;
export const consentedClientKey = (medspaId: string, consent: string, clientId: string): Key => ({
  pk: consentedClientsPk(medspaId, consent),
  sk: clientId,
});

/** A client's photos by upload time (gsi2): their list, and erasing them with the client. The photo itself is in the `PHOTO` collection. */
export const clientPhotosIndexPk = (medspaId: string, clientId: string) =>
  `${practicePrefix(medspaId)}#CLIENT_PHOTOS#${clientId}`;
export const clientPhotosIndexKeys = (medspaId: string, clientId: string, createdAt: string, photoId: string) => ({
  gsi2pk: clientPhotosIndexPk(medspaId, clientId),
  gsi2sk: `${createdAt}#${photoId}`,
});

/**
 * Forms (section 14, docs/decisions/0029). A template's current version is the `FORM_TEMPLATE`
 * collection's item; every version is also an item of its own, written once in the same
 * transaction as the current one.
 */
export const formTemplateVersionsPk = (medspaId: string, templateId: string) =>
  `${practicePrefix(medspaId)}#FORM_TEMPLATE_VERSIONS#${templateId}`;
export const formTemplateVersionKey = (medspaId: string, templateId: string, version: number): Key => ({
  pk: formTemplateVersionsPk(medspaId, templateId),
  sk: String(version).padStart(6, '0'),
});
/** The practice's forms catalog (each template's name, version, valid_days, active), written with its template. */
export const formsCatalogKey = (medspaId: string): Key => ({
  pk: `${practicePrefix(medspaId)}#FORMS_CATALOG`,
  sk: 'CATALOG',
});
/** A client's latest expiry per template (the readiness summary), written with each submission. */
export const formsSummaryKey = (medspaId: string, clientId: string): Key => ({
  pk: `${practicePrefix(medspaId)}#FORMS_SUMMARY`,
  sk: clientId,
});
/** A client's form submissions by time (gsi2). The submission itself is in the `FORM_SUBMISSION` collection. */
export const clientFormSubmissionsIndexPk = (medspaId: string, clientId: string) =>
  `${practicePrefix(medspaId)}#CLIENT_FORMS#${clientId}`;
export const clientFormSubmissionsIndexKeys = (
  medspaId: string,
  clientId: string,
  submittedAt: string,
  id: string,
) => ({
  gsi2pk: clientFormSubmissionsIndexPk(medspaId, clientId),
  gsi2sk: `${submittedAt}#${id}`,
});

/** Bookable resources whose time is claimed. */
export type ClaimedResource = 'PROVIDER' | 'ROOM' | 'EQUIPMENT';

/** Time claims: one item per resource and UTC hour (`YYYY-MM-DDTHH`), holding the active appointments touching that hour. */
export const claimPk = (medspaId: string, resource: ClaimedResource, resourceId: string) =>
  `${practicePrefix(medspaId)}#CLAIM#${resource}#${resourceId}`;
export const claimKey = (medspaId: string, resource: ClaimedResource, resourceId: string, hour: string): Key => ({
  pk: claimPk(medspaId, resource, resourceId),
  sk: hour,
});

/** SKU uniqueness: one item per practice and case-folded SKU, holding the product id; written in the product's own transaction. */
export const productSkuKey = (medspaId: string, normalizedSku: string): Key => ({
  pk: `${practicePrefix(medspaId)}#SKU`,
  sk: normalizedSku,
});

/** Low-stock products (gsi2, sparse): present only while quantity_on_hand <= low_stock_threshold, so `?low_stock=true` is one Query. */
export const lowStockIndexPk = (medspaId: string) => `${practicePrefix(medspaId)}#LOW_STOCK`;
export const lowStockIndexKeys = (medspaId: string, productId: string) => ({
  gsi2pk: lowStockIndexPk(medspaId),
  gsi2sk: productId,
});

/** Low-stock crossings, one item per crossing, by time: the stream turns each into `product.low_stock`. */
export const lowStockEventsPk = (medspaId: string) => `${practicePrefix(medspaId)}#LOW_STOCK_EVENTS`;
export const lowStockEventKey = (medspaId: string, at: string, productId: string, adjustmentId: string): Key => ({
  pk: lowStockEventsPk(medspaId),
  sk: `${at}#${productId}#${adjustmentId}`,
});

/** Lot numbers taken, one partition per product (the number normalised): written in the lot's own transaction. */
export const lotNumbersPk = (medspaId: string, productId: string) =>
  `${practicePrefix(medspaId)}#LOT_NUMBERS#${productId}`;
export const lotNumberKey = (medspaId: string, productId: string, normalizedLotNumber: string): Key => ({
  pk: lotNumbersPk(medspaId, productId),
  sk: normalizedLotNumber,
});

/**
 * Who was exposed to a lot: one item per appointment whose treatment record (its current version)
 * took from the lot, written in the record's own transaction. `GET /v1/lots/{id}/exposures` and a
 * recall are one Query on the lot's partition, never a Scan.
 */
export const lotExposuresPk = (medspaId: string, lotId: string) => `${practicePrefix(medspaId)}#LOT_EXPOSURES#${lotId}`;
export const lotExposureKey = (medspaId: string, lotId: string, appointmentId: string): Key => ({
  pk: lotExposuresPk(medspaId, lotId),
  sk: appointmentId,
});

/** A recalled lot's notices, one per exposed client (docs/decisions/0027): a retried fan-out writes the same keys. */
export const lotRecallNoticeKey = (medspaId: string, lotId: string, clientId: string): Key => ({
  pk: `${practicePrefix(medspaId)}#LOT_RECALL_NOTICES#${lotId}`,
  sk: clientId,
});

/** A product's lots (gsi2), first to expire first: `GET /v1/products/{id}/lots` is one Query. Lots themselves are the `LOT` collection (GET by id). */
export const productLotsIndexPk = (medspaId: string, productId: string) =>
  `${practicePrefix(medspaId)}#PRODUCT_LOTS#${productId}`;
export const productLotsIndexKeys = (medspaId: string, productId: string, expiresOn: string, lotId: string) => ({
  gsi2pk: productLotsIndexPk(medspaId, productId),
  gsi2sk: `${expiresOn}#${lotId}`,
});

/**
 * A client plan's own partition: the plan item (`PLAN`) and one balance item per service
 * (`BAL#<service>`), read together by one Query; its ledger has a partition of its own.
 */
export const clientPlanPk = (medspaId: string, clientPlanId: string) =>
  `${practicePrefix(medspaId)}#CPLAN#${clientPlanId}`;
export const clientPlanKey = (medspaId: string, clientPlanId: string): Key => ({
  pk: clientPlanPk(medspaId, clientPlanId),
  sk: 'PLAN',
});
export const planBalanceKey = (medspaId: string, clientPlanId: string, serviceId: string): Key => ({
  pk: clientPlanPk(medspaId, clientPlanId),
  sk: `BAL#${serviceId}`,
});
/** A client's plans by sale (gsi2): `GET /v1/clients/{id}/plans`. */
export const clientPlansIndexPk = (medspaId: string, clientId: string) =>
  `${practicePrefix(medspaId)}#CLIENT_PLANS#${clientId}`;
export const clientPlansIndexKeys = (medspaId: string, clientId: string, createdAt: string, clientPlanId: string) => ({
  gsi2pk: clientPlansIndexPk(medspaId, clientId),
  gsi2sk: `${createdAt}#${clientPlanId}`,
});
/**
 * Client plans due for renewal or expiry (gsi1, sparse, docs/decisions/0026): a client plan item
 * carries these keys while something is due, in the partition of the UTC hour it falls due (its
 * practice-local date's start); the hourly sweep Queries the hours since its checkpoint. Time
 * leads, as in the reminders' due partitions: the sweep reads across practices by time.
 */
export const plansDueIndexPk = (utcHour: string) => `PLANS_DUE#${utcHour}`;
export const plansDueIndexKeys = (utcHour: string, medspaId: string, clientPlanId: string) => ({
  gsi1pk: plansDueIndexPk(utcHour),
  gsi1sk: `${medspaId}#${clientPlanId}`,
});
/** The plan sweep's checkpoint: the last hour partition it swept (one item for the deployment). */
export const planSweepCheckpointKey = (): Key => ({ pk: 'PLANS_SWEEP', sk: 'CHECKPOINT' });
/** A client plan's unit ledger: newest first by `${created_at}#${id}`. */
export const planLedgerPk = (medspaId: string, clientPlanId: string) =>
  `${practicePrefix(medspaId)}#CPLAN_LEDGER#${clientPlanId}`;
export const planLedgerKey = (medspaId: string, clientPlanId: string, at: string, entryId: string): Key => ({
  pk: planLedgerPk(medspaId, clientPlanId),
  sk: `${at}#${entryId}`,
});

/** A product's stock ledger: its own partition, newest first by `${created_at}#${id}`. */
export const stockLedgerPk = (medspaId: string, productId: string) => `${practicePrefix(medspaId)}#LEDGER#${productId}`;
export const stockLedgerKey = (medspaId: string, productId: string, at: string, adjustmentId: string): Key => ({
  pk: stockLedgerPk(medspaId, productId),
  sk: `${at}#${adjustmentId}`,
});

/** gsi1 keys of an item on a time-ordered collection partitioned by UTC month (lib/db/month-partitions). */
const monthIndexKeys = (partitionOf: (utcMonth: string) => string, at: string, id: string) => ({
  gsi1pk: partitionOf(at.slice(0, 7)),
  gsi1sk: `${at}#${id}`,
});

/** Retail sales by time (gsi1, sale adjustments only): one partition per practice and UTC month, for revenue reports. */
export const retailSalesIndexPk = (medspaId: string, utcMonth: string) =>
  `${practicePrefix(medspaId)}#SALES#${utcMonth}`;
export const retailSalesIndexKeys = (medspaId: string, at: string, adjustmentId: string) =>
  monthIndexKeys((month) => retailSalesIndexPk(medspaId, month), at, adjustmentId);

/**
 * A plan's sale, as the revenue report counts it: an item of its own, written with the sale and
 * never changed (the client plan's gsi1 is its place on the renewal sweep's due index).
 */
export const planSaleKey = (medspaId: string, clientPlanId: string): Key => ({
  pk: `${practicePrefix(medspaId)}#PLAN_SALE#${clientPlanId}`,
  sk: 'SALE',
});

/** Plans sold by time (gsi1, on the sale items): one partition per practice and UTC month of the sale, for a report rebuild. */
export const planSalesIndexPk = (medspaId: string, utcMonth: string) =>
  `${practicePrefix(medspaId)}#PLAN_SALES#${utcMonth}`;
export const planSalesIndexKeys = (medspaId: string, soldAt: string, clientPlanId: string) =>
  monthIndexKeys((month) => planSalesIndexPk(medspaId, month), soldAt, clientPlanId);

/** Payments by time (gsi1): one partition per practice and UTC month, sorted by created_at. */
export const paymentTimeIndexPk = (medspaId: string, utcMonth: string) =>
  `${practicePrefix(medspaId)}#PAYMENTS#${utcMonth}`;
export const paymentTimeIndexKeys = (medspaId: string, createdAt: string, paymentId: string) =>
  monthIndexKeys((month) => paymentTimeIndexPk(medspaId, month), createdAt, paymentId);

/** A client's payments by time (gsi2). */
export const clientPaymentsIndexPk = (medspaId: string, clientId: string) =>
  `${practicePrefix(medspaId)}#CLIENT_PAYMENTS#${clientId}`;
export const clientPaymentsIndexKeys = (medspaId: string, clientId: string, createdAt: string, paymentId: string) => ({
  gsi2pk: clientPaymentsIndexPk(medspaId, clientId),
  gsi2sk: `${createdAt}#${paymentId}`,
});

/**
 * Scheduled reminders (API reference, webhooks and events). An appointment's reminder is armed (by the stream consumer, on
 * create and on a move) as one item in the partition of the minute it falls due; the sweeper
 * Queries each minute partition from its checkpoint to now. These are the only partitions not led
 * by a practice id: the sweeper reads across practices by time, so time leads. A minute holds the
 * reminders of every practice due in it, far below a partition's limits; the practice id leads the
 * sort key, and the items hold ids and times only.
 */
export const remindersDuePk = (utcMinute: string) => `REMINDERS_DUE#${utcMinute}`;
export const reminderDueKey = (
  utcMinute: string,
  medspaId: string,
  appointmentId: string,
  scheduledAt: string,
): Key => ({
  pk: remindersDuePk(utcMinute),
  sk: `${medspaId}#${appointmentId}#${scheduledAt}`,
});

/** The sweeper's checkpoint: the last minute partition it swept (one item for the deployment). */
export const reminderSweepCheckpointKey = (): Key => ({ pk: 'REMINDERS_SWEEP', sk: 'CHECKPOINT' });

/**
 * "The reminder for this appointment time went out": written with attribute_not_exists in the
 * transaction that writes the scheduled reminder, in the appointment's own partition, so a
 * reminder is written at most once per appointment and scheduled time.
 */
export const reminderSentKey = (medspaId: string, appointmentId: string, scheduledAt: string): Key => ({
  pk: appointmentPk(medspaId, appointmentId),
  sk: `REMINDER_SENT#${scheduledAt}`,
});

/**
 * A webhook subscription's delivery log: its own partition, newest first by `${created_at}#${id}`
 * (one item per attempt; items carry `expires_at` and vanish after 30 days). Subscriptions
 * themselves are the `WEBHOOK` collection, so fan-out reads a practice's in one Query.
 */
export const webhookDeliveriesPk = (medspaId: string, subscriptionId: string) =>
  `${practicePrefix(medspaId)}#WEBHOOK_DELIVERIES#${subscriptionId}`;
export const webhookDeliveryKey = (
  medspaId: string,
  subscriptionId: string,
  createdAt: string,
  deliveryId: string,
): Key => ({
  pk: webhookDeliveriesPk(medspaId, subscriptionId),
  sk: `${createdAt}#${deliveryId}`,
});

/**
 * Webhook retries that wait longer than SQS can delay a message (docs/decisions/0021-webhook-retries-in-minute-partitions.md):
 * one item in the partition of the UTC minute the retry falls due, swept every minute like the
 * reminders (time leads, the practice id leads the sort key, the item holds ids and times only: the
 * job itself is the retry's `pending` log entry), and the sweeper's checkpoint.
 */
export const webhookRetriesDuePk = (utcMinute: string) => `WEBHOOK_RETRIES_DUE#${utcMinute}`;
export const webhookRetryDueKey = (utcMinute: string, medspaId: string, deliveryId: string): Key => ({
  pk: webhookRetriesDuePk(utcMinute),
  sk: `${medspaId}#${deliveryId}`,
});
export const webhookRetrySweepCheckpointKey = (): Key => ({ pk: 'WEBHOOK_RETRIES_SWEEP', sk: 'CHECKPOINT' });

/** A delivery by its id alone (gsi2, one item per partition): `POST /v1/webhooks/{id}/deliveries/{delivery_id}/retry`. */
export const webhookDeliveryLookupIndexKeys = (medspaId: string, deliveryId: string) => ({
  gsi2pk: `${practicePrefix(medspaId)}#WEBHOOK_DELIVERY#${deliveryId}`,
  gsi2sk: 'DELIVERY',
});

/**
 * Online booking's one client per email (API reference, online booking): the client an email books
 * as, written with the first booking under attribute_not_exists, so simultaneous first bookings
 * make one client. By the normalised email's SHA-256, never the address itself.
 */
export const onlineEmailKey = (medspaId: string, emailHash: string): Key => ({
  pk: `${practicePrefix(medspaId)}#ONLINE_EMAIL`,
  sk: emailHash,
});

/**
 * A client's active online bookings and their ends (the per-client limit's ledger): every write
 * that adds, moves or ends an online booking changes it in the same transaction, and a public
 * booking conditions on its version, so the limit holds whatever the concurrency.
 */
export const onlineLedgerKey = (medspaId: string, clientId: string): Key => ({
  pk: `${practicePrefix(medspaId)}#ONLINE_LEDGER`,
  sk: clientId,
});

/** A hold (API reference, holds): its own partition, like an appointment's. TTL a day after it expires. */
export const holdPk = (medspaId: string, holdId: string) => `${practicePrefix(medspaId)}#HOLD#${holdId}`;
export const holdKey = (medspaId: string, holdId: string): Key => ({ pk: holdPk(medspaId, holdId), sk: 'HOLD' });

/** A series (API reference, series): its own partition, like a hold's. */
export const seriesPk = (medspaId: string, seriesId: string) => `${practicePrefix(medspaId)}#SERIES#${seriesId}`;
export const seriesKey = (medspaId: string, seriesId: string): Key => ({
  pk: seriesPk(medspaId, seriesId),
  sk: 'SERIES',
});

/**
 * A client IP's active public holds in a practice (the per-IP limit's ledger), by the address's
 * SHA-256, never the address: a new public hold conditions on its version in the hold's transaction.
 */
export const holdIpLedgerKey = (medspaId: string, ipHash: string): Key => ({
  pk: `${practicePrefix(medspaId)}#HOLD_IPS`,
  sk: ipHash,
});

/**
 * A credential's rate-limit bucket (its `tat`; TTL): one item per credential, shared by every
 * container. A publishable key's is its overall budget.
 */
export const rateLimitKey = (medspaId: string, clientId: string): Key => ({
  pk: `${practicePrefix(medspaId)}#RATE_LIMIT`,
  sk: clientId,
});

/**
 * One client IP's budget on one publishable key: a partition per key and address, so a key's
 * visitors never share a hot partition.
 */
export const keyIpRateLimitKey = (medspaId: string, keyId: string, sourceIp: string): Key => ({
  pk: `${practicePrefix(medspaId)}#RATE_LIMIT#${keyId}#IP#${sourceIp}`,
  sk: 'BUCKET',
});

/**
 * A client IP's rate-limit bucket before its caller is known (the token exchange, public calls
 * whose key turns out unknown): one partition per address, so no practice-less partition grows
 * hot. Not led by a practice id: the caller is not known yet.
 */
export const ipRateLimitKey = (sourceIp: string): Key => ({ pk: `RATE_LIMIT_IP#${sourceIp}`, sk: 'BUCKET' });

/** An Idempotency-Key's record (claim, commit marker, stored response; TTL 24 h): keys are per credential. */
export const idempotencyKey = (medspaId: string, clientId: string, key: string): Key => ({
  pk: `${practicePrefix(medspaId)}#IDEMPOTENCY#${clientId}`,
  sk: key,
});

// ---- The waitlist (API reference, waitlist; docs/decisions/0032) --------------------------------

/** A practice's waitlist entries by service (gsi1), oldest first: `GET /v1/waitlist?service_id=`. Entries themselves are the `WAITLIST` collection. */
export const waitlistByServiceIndexPk = (medspaId: string, serviceId: string) =>
  `${practicePrefix(medspaId)}#WAITLIST_SVC#${serviceId}`;
/** Entries still waiting for an offer (gsi2, sparse: only while `waiting`), by service, oldest first: what freed time is matched against. */
export const waitingIndexPk = (medspaId: string, serviceId: string) =>
  `${practicePrefix(medspaId)}#WAITING#${serviceId}`;
export const waitlistEntryIndexKeys = (
  medspaId: string,
  serviceId: string,
  createdAt: string,
  entryId: string,
  waiting: boolean,
) => ({
  gsi1pk: waitlistByServiceIndexPk(medspaId, serviceId),
  gsi1sk: `${createdAt}#${entryId}`,
  ...(waiting ? { gsi2pk: waitingIndexPk(medspaId, serviceId), gsi2sk: `${createdAt}#${entryId}` } : {}),
});

/**
 * A freed time (a cancel, no-show, delete, move, released or expired hold): who it is offered to
 * now and who it was offered to before, so it goes to one entry at a time and never twice to one.
 * Its id names its cause (`<appointment or hold id>#<version or release|expiry>`): a redelivered
 * stream record finds the same item.
 */
export const waitlistFreedKey = (medspaId: string, freedId: string): Key => ({
  pk: `${practicePrefix(medspaId)}#WAITLIST_FREED`,
  sk: freedId,
});

/**
 * Present once the practice has had a waitlist entry (written with its first one): the waitlist
 * worker reads it before anything else, so freed time in a practice without a waitlist costs one read.
 */
export const waitlistInUseKey = (medspaId: string): Key => ({
  pk: `${practicePrefix(medspaId)}#WAITLIST_IN_USE`,
  sk: 'IN_USE',
});

/** An offer's hold -> its entry and freed time: a released or expired hold is an offer's when this item exists. */
export const waitlistOfferKey = (medspaId: string, holdId: string): Key => ({
  pk: `${practicePrefix(medspaId)}#WAITLIST_OFFER#${holdId}`,
  sk: 'OFFER',
});

/**
 * Holds and entries by the minute they expire (time leads, as in the reminders' due partitions):
 * the waitlist sweep reads each minute since its checkpoint, moves an expired offer's time on,
 * offers a plain hold's expired time, and marks an expired entry (docs/decisions/0032).
 */
export const waitlistDuePk = (utcMinute: string) => `WAITLIST_DUE#${utcMinute}`;
export const waitlistDueKey = (utcMinute: string, medspaId: string, kind: 'hold' | 'entry', id: string): Key => ({
  pk: waitlistDuePk(utcMinute),
  sk: `${medspaId}#${kind}#${id}`,
});
export const waitlistSweepCheckpointKey = (): Key => ({ pk: 'WAITLIST_SWEEP', sk: 'CHECKPOINT' });

// ---- Report aggregates (kept by the table stream, lib/use-cases/report-aggregation.ts) ----------

/** Which aggregate generation reports read and the stream writes (and the one a rebuild is filling): one GetItem per report, cached by the stream. */
export const reportGenerationKey = (medspaId: string): Key => ({
  pk: `${practicePrefix(medspaId)}#REPORTS`,
  sk: 'GENERATION',
});

/**
 * Report day items of one generation, one partition per practice-local year: a range of days is
 * one Query per year touched (`TOTALS#{from}`..`TOTALS#{to}`), a year's report at most 366 items.
 */
export const reportDaysPk = (medspaId: string, generation: string, year: string) =>
  `${practicePrefix(medspaId)}#RPT#${generation}#DAYS#${year}`;
export type ReportDayKind = 'TOTALS' | 'CLIENTS';
export const reportDaySk = (kind: ReportDayKind, date: string) => `${kind}#${date}`;
/** A practice-local day's counters: totals and per provider / per service (TOTALS), or the clients seen and first visits (CLIENTS). */
export const reportDayKey = (medspaId: string, generation: string, kind: ReportDayKind, date: string): Key => ({
  pk: reportDaysPk(medspaId, generation, date.slice(0, 4)),
  sk: reportDaySk(kind, date),
});

/** What a generation has counted of each source record (version and facts): read before each change, so a change or a replay is applied once, against what was counted. */
export const reportLedgerPk = (medspaId: string, generation: string) =>
  `${practicePrefix(medspaId)}#RPT#${generation}#LEDGER`;
export const reportLedgerKey = (medspaId: string, generation: string, recordKey: string): Key => ({
  pk: reportLedgerPk(medspaId, generation),
  sk: recordKey,
});

/** A client's completed visits per practice-local date, in one generation: their first visit, for retention. */
export const reportClientVisitsPk = (medspaId: string, generation: string) =>
  `${practicePrefix(medspaId)}#RPT#${generation}#CLIENT_VISITS`;
export const reportClientVisitsKey = (medspaId: string, generation: string, clientId: string): Key => ({
  pk: reportClientVisitsPk(medspaId, generation),
  sk: clientId,
});

// ---- The event feed (API reference, section 15; docs/decisions/0031-event-feed.md) -----------

/**
 * A practice's kept events in the order the stream worker kept them: sort key = the per-practice
 * sequence number, zero-padded so string order is number order. The feed's head (the last number
 * handed out) is an item of the same partition under `HEAD`, which sorts after every number, so a
 * Query `between` two numbers never reads it.
 */
export const FEED_SEQ_DIGITS = 15;
export const eventFeedPk = (medspaId: string) => `${practicePrefix(medspaId)}#EVENTS`;
export const eventFeedSk = (seq: number) => String(seq).padStart(FEED_SEQ_DIGITS, '0');
export const eventFeedKey = (medspaId: string, seq: number): Key => ({
  pk: eventFeedPk(medspaId),
  sk: eventFeedSk(seq),
});
export const eventFeedHeadKey = (medspaId: string): Key => ({ pk: eventFeedPk(medspaId), sk: 'HEAD' });
/** An event kept in the feed, by its id (`GET /v1/events/{id}`, and the guard against keeping it twice). */
export const eventIdKey = (medspaId: string, eventId: string): Key => ({
  pk: `${practicePrefix(medspaId)}#EVENT_IDS`,
  sk: eventId,
});

// ---- Partition families: what a function may read and write (its role's dynamodb:LeadingKeys) ---

/** Any server-made id (a lowercase UUID) as an IAM StringLike pattern: exactly 36 characters. */
const ANY_ID = '????????-????-????-????-????????????';

/**
 * Every partition of the table, named, as the IAM pattern of its partition keys, built by the key
 * builders above. Route rows and the workers table declare their reads and writes with these names
 * (lib/db/table-writes.ts); the CDK roles grant exactly that, and the local runtime enforces it.
 */
export const PARTITIONS = {
  practice: practiceKey(ANY_ID).pk,
  audit: auditPk(ANY_ID),
  rateLimit: rateLimitKey(ANY_ID, '*').pk,
  ipRateLimit: ipRateLimitKey('*').pk,
  keyIpRateLimit: keyIpRateLimitKey(ANY_ID, ANY_ID, '*').pk,
  idempotency: idempotencyKey(ANY_ID, '*', '*').pk,
  clients: collectionPk(ANY_ID, 'CLIENT'),
  providers: collectionPk(ANY_ID, 'PROVIDER'),
  rooms: collectionPk(ANY_ID, 'ROOM'),
  equipment: collectionPk(ANY_ID, 'EQUIPMENT'),
  services: collectionPk(ANY_ID, 'SERVICE'),
  products: collectionPk(ANY_ID, 'PRODUCT'),
  payments: collectionPk(ANY_ID, 'PAYMENT'),
  webhooks: collectionPk(ANY_ID, 'WEBHOOK'),
  credentials: collectionPk(ANY_ID, 'CRED'),
  publishableKeys: collectionPk(ANY_ID, 'PKEY'),
  appointments: appointmentPk(ANY_ID, ANY_ID),
  clientSearch: clientSearchPk(ANY_ID),
  onlineEmails: onlineEmailKey(ANY_ID, '*').pk,
  onlineLedger: onlineLedgerKey(ANY_ID, '*').pk,
  holds: holdPk(ANY_ID, ANY_ID),
  holdIps: holdIpLedgerKey(ANY_ID, '*').pk,
  series: seriesPk(ANY_ID, ANY_ID),
  consents: consentsPk(ANY_ID, ANY_ID),
  contactConsents: contactConsentsPk(ANY_ID, ANY_ID),
  consentedClients: consentedClientsPk(ANY_ID, '*'),
  claims: claimPk(ANY_ID, '*' as ClaimedResource, ANY_ID),
  skus: productSkuKey(ANY_ID, '*').pk,
  lots: collectionPk(ANY_ID, 'LOT'),
  lotNumbers: lotNumbersPk(ANY_ID, ANY_ID),
  lotExposures: lotExposuresPk(ANY_ID, ANY_ID),
  lotRecallNotices: lotRecallNoticeKey(ANY_ID, ANY_ID, '*').pk,
  lowStockEvents: lowStockEventsPk(ANY_ID),
  stockLedger: stockLedgerPk(ANY_ID, ANY_ID),
  plans: collectionPk(ANY_ID, 'PLAN'),
  clientPlans: clientPlanPk(ANY_ID, ANY_ID),
  planSales: planSaleKey(ANY_ID, ANY_ID).pk,
  planLedger: planLedgerPk(ANY_ID, ANY_ID),
  planSweep: planSweepCheckpointKey().pk,
  webhookDeliveries: webhookDeliveriesPk(ANY_ID, ANY_ID),
  webhookRetriesDue: webhookRetriesDuePk('*'),
  webhookRetrySweep: webhookRetrySweepCheckpointKey().pk,
  remindersDue: remindersDuePk('*'),
  reminderSweep: reminderSweepCheckpointKey().pk,
  reportGeneration: reportGenerationKey(ANY_ID).pk,
  reportDays: reportDaysPk(ANY_ID, '*', '*'),
  reportLedger: reportLedgerPk(ANY_ID, '*'),
  reportClientVisits: reportClientVisitsPk(ANY_ID, '*'),
  photos: collectionPk(ANY_ID, 'PHOTO'),
  eventFeed: eventFeedPk(ANY_ID),
  eventIds: eventIdKey(ANY_ID, '*').pk,
  formTemplates: collectionPk(ANY_ID, 'FORM_TEMPLATE'),
  formTemplateVersions: formTemplateVersionsPk(ANY_ID, ANY_ID),
  formSubmissions: collectionPk(ANY_ID, 'FORM_SUBMISSION'),
  formsCatalog: formsCatalogKey(ANY_ID).pk,
  formsSummary: formsSummaryKey(ANY_ID, '*').pk,
  waitlist: collectionPk(ANY_ID, 'WAITLIST'),
  waitlistFreed: waitlistFreedKey(ANY_ID, '*').pk,
  waitlistInUse: waitlistInUseKey(ANY_ID).pk,
  waitlistOffers: waitlistOfferKey(ANY_ID, ANY_ID).pk,
  waitlistDue: waitlistDuePk('*'),
  waitlistSweep: waitlistSweepCheckpointKey().pk,
} as const;

export type PartitionName = keyof typeof PARTITIONS;

/**
 * Every partition of a global index, named, with its index: a Query on an index is authorized on
 * `table/<name>/index/<index>`, and `dynamodb:LeadingKeys` is the index's partition key value
 * there. Reads only (nothing writes an index). Disjoint from PARTITIONS' patterns.
 */
export const INDEX_PARTITIONS = {
  /** Appointments by month on gsi1n: the appointment list's narrow entries (gsi1's, whole, only a report rebuild reads: the admin CLI). */
  appointmentListByMonth: { index: 'gsi1n', pattern: appointmentTimeIndexPk(ANY_ID, '*') },
  salesByMonth: { index: 'gsi1', pattern: retailSalesIndexPk(ANY_ID, '*') },
  paymentsByMonth: { index: 'gsi1', pattern: paymentTimeIndexPk(ANY_ID, '*') },
  planSalesByMonth: { index: 'gsi1', pattern: planSalesIndexPk(ANY_ID, '*') },
  credentialLookup: { index: 'gsi2', pattern: credentialLookupIndexKey('*').gsi2pk },
  clientAppointments: { index: 'gsi2', pattern: clientAppointmentsIndexPk(ANY_ID, ANY_ID) },
  clientPayments: { index: 'gsi2', pattern: clientPaymentsIndexPk(ANY_ID, ANY_ID) },
  lowStock: { index: 'gsi2', pattern: lowStockIndexPk(ANY_ID) },
  productLots: { index: 'gsi2', pattern: productLotsIndexPk(ANY_ID, ANY_ID) },
  clientPlansByClient: { index: 'gsi2', pattern: clientPlansIndexPk(ANY_ID, ANY_ID) },
  plansDue: { index: 'gsi1', pattern: plansDueIndexPk('*') },
  webhookDeliveryLookup: { index: 'gsi2', pattern: webhookDeliveryLookupIndexKeys(ANY_ID, ANY_ID).gsi2pk },
  clientPhotos: { index: 'gsi2', pattern: clientPhotosIndexPk(ANY_ID, ANY_ID) },
  clientFormSubmissions: { index: 'gsi2', pattern: clientFormSubmissionsIndexPk(ANY_ID, ANY_ID) },
  waitlistByService: { index: 'gsi1', pattern: waitlistByServiceIndexPk(ANY_ID, ANY_ID) },
  waitingByService: { index: 'gsi2', pattern: waitingIndexPk(ANY_ID, ANY_ID) },
} as const satisfies Record<string, { index: 'gsi1' | 'gsi2' | 'gsi1n'; pattern: string }>;

export type IndexPartitionName = keyof typeof INDEX_PARTITIONS;

/** What a function may read: a table partition family (GetItem, BatchGetItem, Query) or an index's (Query). */
export type ReadFamily = PartitionName | IndexPartitionName;
