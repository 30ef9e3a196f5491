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
  | 'CRED';

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
export const appointmentPk = (medspaId: string, appointmentId: string) => `${practicePrefix(medspaId)}#APPOINTMENT#${appointmentId}`;
export const appointmentKey = (medspaId: string, appointmentId: string): Key => ({ pk: appointmentPk(medspaId, appointmentId), sk: 'APPOINTMENT' });
export const treatmentRecordKey = (medspaId: string, appointmentId: string): Key => ({ pk: appointmentPk(medspaId, appointmentId), sk: 'TREATMENT' });
export const reminderKey = (medspaId: string, appointmentId: string, at: string, eventId: string): Key => ({
  pk: appointmentPk(medspaId, appointmentId),
  sk: `REMINDER#${at}#${eventId}`,
});

/** Appointments by time (gsi1): one partition per practice and UTC month, sorted by start. */
export const appointmentTimeIndexPk = (medspaId: string, utcMonth: string) => `${practicePrefix(medspaId)}#APPTS#${utcMonth}`;
export const appointmentTimeIndexKeys = (medspaId: string, scheduledAt: string, appointmentId: string) => ({
  gsi1pk: appointmentTimeIndexPk(medspaId, scheduledAt.slice(0, 7)),
  gsi1sk: `${scheduledAt}#${appointmentId}`,
});

/** A client's appointments by time (gsi2): history, and cancelling the future ones when a client is deleted. */
export const clientAppointmentsIndexPk = (medspaId: string, clientId: string) => `${practicePrefix(medspaId)}#CLIENT_APPTS#${clientId}`;
export const clientAppointmentsIndexKeys = (medspaId: string, clientId: string, scheduledAt: string, appointmentId: string) => ({
  gsi2pk: clientAppointmentsIndexPk(medspaId, clientId),
  gsi2sk: `${scheduledAt}#${appointmentId}`,
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
