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
  once).
- **Token checks** beyond signature, \`iss\`, \`aud\`, \`exp\` and \`nbf\`: a token is refused (401
  \`UNAUTHORIZED\`) when its header has \`crit\` (we implement no JWS extension, RFC 7515 4.1.11), when
  it lacks \`iat\`, \`exp\`, \`sub\`, \`medspa_id\` or a known \`role\`, when its lifetime \`exp - iat\` is over
  the issued 3600 s plus 60 s of clock skew, or when its \`iat\` is more than 60 s in the future. So a
  token minted with a long life (a misused signing key) is refused even before it expires.
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
  past the page). Cursors are opaque and tamper-evident: sealed with AES-256-GCM under
  \`CURSOR_SECRET\`, bound to the practice, the list and its filters (the query without \`cursor\` and
  \`limit\`, plus the path's id; \`limit\` may change between pages), and valid for 24 h
  (\`CURSOR_TTL_SECONDS\`). An altered cursor, one of another practice, list or filter set, and an
  expired one are 400 \`VALIDATION_ERROR\` with \`details\` naming \`cursor\`: start the list again.
  \`CURSOR_SECRET\` takes comma-separated secrets, current first; cursors sealed under a listed older
  one keep working, so a rotation breaks no cursor already handed out (drop the old secret once
  \`CURSOR_TTL_SECONDS\` has passed).
- **Transport refusals**: a request refused before any handler runs still gets the error envelope,
  an \`X-Request-Id\` and a log line (request id, status, code, the parser's reason; never a header
  value) from the local server: a request target over 8 KiB is 414 \`URI_TOO_LONG\`; a request line
  plus headers over 10240 bytes (Node's \`maxHeaderSize\`, set to API Gateway's quota) is 431
  \`HEADERS_TOO_LARGE\` (a target so long that it passes that limit too is 414 when the request
  arrives in one read, as on loopback, else 431); a malformed request line or header, such as a
  control byte in a header value, is 400 \`VALIDATION_ERROR\` with \`details\` naming \`request_line\` or
  \`headers\`. On AWS, API Gateway (HTTP API) refuses these itself, before any Lambda runs. AWS's
  documented quota is 10240 bytes for the request line and header values together, fixed
  (https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-quotas.html); its
  refusals carry API Gateway's own status and body (a \`{"message": ...}\` JSON), not our envelope
  nor our \`X-Request-Id\` (its \`apigw-requestid\` header names the request), and AWS does not
  document the status of each case. Treat a 4xx without \`"success": false\` as the gateway's and
  shrink the request.
- **Appointments list** without dates covers today (practice-local) and the next 30 days; a range
  may span at most 366 days. \`status\` takes \`a,b\` or repeated parameters.
- **Soft deletes**: deleted providers, rooms, equipment and clients keep their id (appointments
  and reports refer to them) but answer 404 everywhere and vanish from lists.
- **Moves**: only \`scheduled\` and \`confirmed\` appointments move; moving another is 409
  \`INVALID_STATUS_TRANSITION\`. Completion, cancel and no-show all free the time.
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
  concurrent adjustments \`quantity_on_hand\`, the zero floor and \`low_stock_crossed\` are exact, while
  a ledger entry's \`quantity_after\` may repeat between adjustments committed at the same moment.
  A duplicate SKU (case-insensitive) is 409 \`CONFLICT\`.
- **Payments**: an unknown payment id is 404 \`PAYMENT_NOT_FOUND\`; the list defaults to the last
  31 days. A payment raises the client's \`total_spent_cents\` in the same transaction.
- **Audit of changes** commits inside the change's own transaction where it has one, so a
  committed change always has its audit entry.
- **Unknown routes** answer 404 \`NOT_FOUND\` in the usual envelope. A form-encoded body is taken
  only by the token endpoint (elsewhere 415 \`UNSUPPORTED_MEDIA_TYPE\`); any other body is read as
  JSON. Responses may gain new fields: ignore the ones you do not know.`;
