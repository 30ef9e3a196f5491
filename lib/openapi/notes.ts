/**
 * README.md, section "Choices where the contract is silent", word for word: the OpenAPI
 * description embeds it (a Lambda has no README to read). test/unit/openapi.test.ts fails when the
 * two disagree: change both together.
 */
export const CONTRACT_SILENT_CHOICES = `- **Auth**: tokens are ES256 JWTs (\`iss\`, \`aud: medspa-api\`, \`sub\` = client_id, \`medspa_id\`,
  \`role\`, \`exp\` = 1 h), verified with aws-jwt-verify against our own JWKS. Locally the key lives in
  \`.data/signing-key.json\`; on AWS it is a KMS key (ECC_NIST_P256) that never leaves KMS. Client
  secrets are stored as scrypt hashes. Generated client ids name their practice, so token exchange
  is one GetItem. Revocation is immediate for new tokens; existing tokens stop within 60 s (each
  container caches a credential's state for \`AUTH_CACHE_TTL_MS\`, and the revoking container at
  once).
- **Waitlist**: a waitlisted practice can exchange tokens and \`GET /v1/practice\`; every other call
  is 403 \`API_ACCESS_NOT_ENABLED\`. Operators enable it with \`npm run admin -- set-api-access\`.
- **Audit log**: every non-GET call and every 401/403 of a known caller is recorded (time,
  client_id, role, operation, resource id, outcome = \`success\` or the error code, status,
  request id). \`GET /v1/audit-log?from=&to=\` (date-times; default the last 30 days), newest first.
- **Lists** return at most \`limit\` items; \`next_cursor\` is null on the last page (we read one item
  past the page). A cursor only works for the list it came from.
- **Appointments list** without dates covers today (practice-local) and the next 30 days; a range
  may span at most 366 days. \`status\` takes \`a,b\` or repeated parameters.
- **Soft deletes**: deleted providers, rooms, equipment and clients keep their id (appointments
  and reports refer to them) but answer 404 everywhere and vanish from lists.
- **Moves**: only \`scheduled\` and \`confirmed\` appointments move; moving another is 409
  \`INVALID_STATUS_TRANSITION\`. Completion, cancel and no-show all free the time.
- **Treatment records** (\`PUT .../treatment-record\`: \`summary, notes, areas_treated, products_used,
  dosage, follow_up\`) can be written from \`checked_in\` on; the detail shows it once \`completed\`.
- **Reminders**: \`POST .../reminders\` answers 202 with the reminder's \`event_id\`; only active
  appointments take reminders.
- **Slots** accept \`service_id\` instead of \`duration_minutes\`; inactive providers have no slots.
- **Unknown routes** answer 404 \`NOT_FOUND\` in the usual envelope; a non-JSON content type other
  than the OAuth form on the token endpoint is 415 \`UNSUPPORTED_MEDIA_TYPE\`.`;
