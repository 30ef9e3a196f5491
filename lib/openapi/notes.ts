/**
 * README.md, section "Choices where the contract is silent", word for word: the OpenAPI
 * description embeds it (a Lambda has no README to read). test/unit/openapi.test.ts fails when the
 * two disagree: `npx tsx infra/sync-notes.ts` copies the README section here.
 */
export const CONTRACT_SILENT_CHOICES = `- **Auth**: tokens are ES256 JWTs (\`iss\`, \`aud: medspa-api\`, \`sub\` = client_id, \`medspa_id\`,
  \`role\`, \`exp\` = 1 h), verified with aws-jwt-verify against our own JWKS. Locally the key lives in
  \`.data/signing-key.json\`; on AWS it is a KMS key (ECC_NIST_P256) that never leaves KMS. Client
  secrets are stored as scrypt hashes. Generated client ids name their practice, so token exchange
  is one GetItem. Revocation is immediate for new tokens; existing tokens stop within 60 s (each
  container caches a credential's state for \`AUTH_CACHE_TTL_MS\`, and the revoking container at
  once). The practice's last live admin credential cannot be revoked, not even by itself: 409
  \`CONFLICT\` (create another admin first). An admin revocation commits only together with a
  condition that another admin credential is still live, so admins revoking each other at the
  same moment can never leave the practice without one.
- **Roles in detail**: providers read clients, appointments and the service catalog, move
  appointment status (including cancel and no-show) and write treatment records; they do not see
  retail inventory. The front desk reads inventory and posts sales.
- **Dates**: years 1900-2999 are accepted; date-times need seconds and an offset (\`Z\` or \`±hh:mm\`).
  Booking an inactive service is 400 \`VALIDATION_ERROR\`; an inactive provider, room or equipment
  is 409 \`*_UNAVAILABLE\`.
- **Waitlist**: a waitlisted practice can exchange tokens and \`GET /v1/practice\`; every other call
  is 403 \`API_ACCESS_NOT_ENABLED\`. Operators enable it with \`npm run admin -- set-api-access\`.
- **Audit log**: every non-GET call and every 401/403 of a known caller is recorded (time,
  client_id, role, operation, resource id, outcome = \`success\` or the error code, status,
  request id). \`GET /v1/audit-log?from=&to=\` (date-times with an offset, or practice-local dates meaning
  whole days; default the last 30 days), newest first.
- **Lists** return at most \`limit\` items; \`next_cursor\` is null on the last page (we read one item
  past the page). A cursor only works for the list it came from.
- **Appointments list** without dates covers today (practice-local) and the next 30 days; a range
  may span at most 366 days. \`status\` takes \`a,b\` or repeated parameters.
- **Soft deletes**: deleted providers, rooms, equipment and clients keep their id (appointments
  and reports refer to them) but answer 404 everywhere and vanish from lists. Deleting a provider
  withdraws it from every service's \`provider_ids\` in the same transaction (each service written
  on the version read; a certification commits only while its provider is live and counts itself
  on the provider, and the deletion commits only if no certification came in since it looked), so
  a deleted provider is never certified for anything. A provider certified for more than 99 services is
  409 \`CONFLICT\` (one transaction holds 100 writes): unassign some first.
- **Moves**: only \`scheduled\` and \`confirmed\` appointments move; moving another is 409
  \`INVALID_STATUS_TRANSITION\`. Completion, cancel and no-show all free the time.
  A create or move may start at most 5 minutes before the request's time (else 400 on
  \`scheduled_at\`, checked before the referenced ids); a move of an appointment whose start has
  passed (even one changing only its provider or room) counts as starting then. \`ROOM_UNAVAILABLE\`
  and \`EQUIPMENT_UNAVAILABLE\` carry the same \`details\` with \`reason\` as \`PROVIDER_UNAVAILABLE\`.
- **No-op PATCH**: a PATCH of nothing, or of values equal to the stored ones, changes nothing:
  200 with the same \`version\`, \`ETag\` and \`updated_at\` (If-Match still applies; the call is still
  audited). Equality is DynamoDB's: objects regardless of key order, lists in order.
- **Treatment records** (\`PUT .../treatment-record\`: \`summary, notes, areas_treated, products_used,
  dosage, follow_up\`) can be written from \`checked_in\` on, by providers, managers and admins (not
  the front desk: it is clinical documentation); the detail shows it once \`completed\`.
- **Reminders**: \`POST .../reminders\` answers 202 with the reminder's \`event_id\`; only active
  appointments take reminders.
- **Slots** accept \`service_id\` instead of \`duration_minutes\`; inactive providers have no slots.
- **Clients**: \`?q=\` searches index items written in the same transaction as the client (a Query
  on a prefix, never a Scan); \`total\` is the exact number of distinct matching clients. A
  query of digits (at least 3) matches phone digits. \`health_score\` is computed when read
  (formula in the OpenAPI description); \`last_visit_at\` is the latest completion recorded. DELETE
  anonymises the stored client (names become "Deleted Client", contact fields cleared), keeps its
  visit and spend statistics for reports, and cancels its future active appointments with reason
  \`client_deleted\`.
- **Products**: \`quantity_on_hand\` changes only through stock adjustments (a PATCH of it is a 400);
  sales are negative deltas, receipts and returns positive; front desk may post sales only. Under
  concurrent adjustments \`quantity_on_hand\`, the zero floor, \`low_stock_crossed\` and every ledger
  entry's \`quantity_after\` are exact: an adjustment commits with its ledger entry only while the
  quantity is still the one it read, and otherwise plans again from the product as it now is
  (14 racing sales from 14 record 13, 12, ..., 0, each once).
  A duplicate SKU (case-insensitive) is 409 \`CONFLICT\`.
- **Payments**: an unknown payment id is 404 \`PAYMENT_NOT_FOUND\`; the list defaults to the last
  31 days. A payment raises the client's \`total_spent_cents\` in the same transaction.
- **Audit of changes** commits inside the change's own transaction where it has one, so a
  committed change always has its audit entry.
- **Unknown routes** answer 404 \`NOT_FOUND\` in the usual envelope. A form-encoded body is taken
  only by the token endpoint (elsewhere 415 \`UNSUPPORTED_MEDIA_TYPE\`); any other body is read as
  JSON. Responses may gain new fields: ignore the ones you do not know.`;
