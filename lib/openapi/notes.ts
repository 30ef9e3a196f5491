/**
 * README.md, section "Choices where the contract is silent", word for word: the OpenAPI
 * description embeds it (a Lambda has no README to read). test/unit/openapi.test.ts fails when the
 * two disagree: `npx tsx infra/sync-notes.ts` copies the README section here.
 */
export const CONTRACT_SILENT_CHOICES = `- **Auth**: tokens are ES256 JWTs (\`iss\`, \`aud: medspa-api\`, \`sub\` = client_id, \`medspa_id\`,
  \`role\`, \`exp\` = 1 h), verified with aws-jwt-verify against our own JWKS. Locally the key lives in
  \`.data/signing-key.json\`; on AWS it is a KMS key (ECC_NIST_P256) that never leaves KMS. Client
  secrets are 256 random bits and stored as their SHA-256 (a slow hash only slows guessing
  secrets people choose; scrypt hashes of credentials made before stay valid). Generated client ids name their practice, so token exchange
  is one GetItem. Revocation is immediate for new tokens; existing tokens stop within 60 s (each
  container caches a credential's state for \`AUTH_CACHE_TTL_MS\`, and the revoking container at
  once). The practice's last live admin credential cannot be revoked, not even by itself: 409
  \`CONFLICT\` (create another admin first). An admin revocation commits only together with a
  condition that another admin credential is still live, so admins revoking each other at the
  same moment can never leave the practice without one.
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
  whole days; default the last 30 days), newest first. The resource id is the record the path
  names (\`{id}\`, a credential's \`{client_id}\`, a public booking's \`{appointment_id}\`), else the one
  the call created. A publishable key is a known caller once it is found live: its calls refused
  for their \`Origin\` are recorded in its practice (client_id the key's id, role \`public\`), except
  while the client address is over its per-IP budget, so a flood writes no more entries than the
  address may send calls; a made-up or deleted key names no practice to record into.
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
- **Reminders**: \`POST .../reminders\` answers 202 with the reminder's \`event_id\`, the id the
  \`appointment.reminder\` event is delivered with; only active appointments take reminders. The
  scheduled reminder goes out once per appointment time, \`reminder_lead_minutes\` before it (the
  setting as it was when the appointment was booked or last moved), or within a minute when the
  appointment is booked or moved inside the lead time; a moved appointment is reminded of its new
  time only.
- **Events**: ids are \`evt_\` + 32 hex digits, the same on every redelivery. \`data.object\` is the
  resource as GET shows it; \`appointment.updated\`, \`appointment.status_changed\` and
  \`client.updated\` carry \`data.previous\` with the old values of the changed fields;
  \`product.low_stock\` carries the product as of the crossing. \`client.deleted\` carries the
  anonymised client and no \`previous\`. A client's visit and spend statistics move with
  completions, no-shows and payments, which have their own events: no \`client.updated\` for those.
  Deleting an appointment (DELETE) emits \`appointment.deleted\` with the appointment as it was
  before the delete and no \`previous\`; its \`created_at\` is when the stream saw the delete.
- **Slots** accept \`service_id\` instead of \`duration_minutes\` (an unknown one is 404
  \`SERVICE_NOT_FOUND\`). A slot is offered only where a create with the same service, duration,
  room and equipment would be accepted, so an inactive provider, service, room or equipment has no
  slots. The per-day slots and the availability search are one rule over a range of dates.
- **Availability search** (\`GET /v1/availability\`): one entry per provider and date that has at
  least one slot; days and providers without any are left out, so \`[]\` means nothing is bookable.
  Entries are ordered by date, then provider \`full_name\` (then id). \`from\`/\`to\` are always
  practice-local dates and decide which slots are found; \`time_zone\` only relabels each slot with
  its date in that zone, so a viewer's date may fall a day outside \`from\`..\`to\`. Without
  \`provider_id\`: every active, not deleted provider certified for the service (more than 20 is 400
  \`VALIDATION_ERROR\` on \`provider_id\`: name at most 20). A named provider that is inactive gets no
  entries. \`service_id\` may be left out only when both \`provider_id\` and \`duration_minutes\` are
  given (then nothing is checked for certification); \`duration_minutes\` overrides the service's, as
  on create. \`to\` before \`from\` or a range over 31 days is 400 on \`to\`. Errors come in create's
  order: \`SERVICE_NOT_FOUND\`, \`PROVIDER_NOT_FOUND\`, \`PROVIDER_NOT_CERTIFIED\`, \`ROOM_NOT_FOUND\`,
  \`EQUIPMENT_NOT_FOUND\`. Unknown parameters are 400 naming the parameter. A search that would try
  more than 40,000 start times (say 20 round-the-clock providers for 31 days every 5 minutes) is
  400 on \`interval_minutes\`, so an answer stays well inside a Lambda response.
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
- **Idempotency-Key** is taken by every authenticated POST (not the token exchange), for 24 h
  (records expire by TTL), in the caller's scope: a staff credential's own; for public calls the
  publishable key's, narrowed to the client IP and, on manage links, the booking token (both
  hashed into the record's key), so a replay never hands one visitor's answer, \`manage_token\`
  included, to another: from another address, or with a wrong or missing \`X-Booking-Token\`, the
  request runs afresh. The key is claimed once the caller is identified (for a token in parallel
  with the credential check; for a publishable key after its origin and online-booking checks),
  and a stored answer is replayed only once every check of the caller (credential, origin, role,
  rate limit) has passed; a refusal before any work (401, 403, 429) is never stored, the key is
  given back. A change that commits in a transaction marks the key committed in that same
  transaction, so a committed booking or payment can never run twice, even if the Lambda dies
  before answering. 2xx and 4xx answers are stored and replayed byte for byte with
  \`Idempotent-Replayed: true\` (and the new request's \`X-Request-Id\`); a 5xx is not stored and the
  key is given back. The same key with another body (or path) is 422 \`IDEMPOTENCY_KEY_REUSED\`; a
  duplicate arriving while the first still runs waits up to 5 s for its answer, then gets 409
  \`IDEMPOTENCY_KEY_IN_USE\`. A key is 1-255 visible ASCII characters.
- **AWS's limits**: text that is not valid Unicode (a lone surrogate such as \`"\\ud800"\`, which
  DynamoDB refuses) is 400 \`VALIDATION_ERROR\` naming each field, in a body, query or path. A list
  page whose answer would pass Lambda's 6 MB response limit comes back shorter than \`limit\`, with
  \`next_cursor\` after its last item (following the cursors still yields every item); any other
  answer that large is 400 \`VALIDATION_ERROR\` asking for less. A stored \`Idempotency-Key\` answer
  over 32 KiB is kept gzip-compressed; one too large even so (none is today) is not kept, and its
  replay is 409 \`CONFLICT\` instead of running the operation again. Keys DynamoDB leaves
  unprocessed in a batch read are asked for again with backoff, never taken as absent.
- **Rate limits**: a token bucket per credential (\`RATE_LIMIT_RPS\` per second, bursts of
  \`RATE_LIMIT_BURST\`; defaults 20 and 40; \`RATE_LIMIT_RPS=0\` turns it off), kept in the table so
  it holds across Lambda containers: one conditional write per request, overlapped with the
  credential check. The bucket is stored as the moment it would be full again (GCRA), so taking a
  token is an increment under a condition, which parallel requests apply one after another
  without seeing each other first: a burst of N simultaneous requests gets exactly as many
  answers as the bucket has tokens, and none is refused while one is left (docs/decisions/0016). A GET's own reads overlap
  both (for a publishable key, the visitor's bucket on it once the key is known), so a staff GET is one round trip
  of latency, not two; its answer still waits for them, and a refusal (401, 403, 429) wins over
  whatever was read. A caller the container expects to refuse (a role the route does not take, a
  bucket it saw drained) reads nothing. Every answer of an
  authenticated route carries \`RateLimit-Limit\` (the burst), \`RateLimit-Remaining\` and
  \`RateLimit-Reset\` (seconds until full); a refusal is 429 \`RATE_LIMITED\` with \`Retry-After\`.
  A publishable key has two budgets of its own, \`rate_limits\` (set on \`POST
  /v1/publishable-keys\` and \`PATCH /v1/publishable-keys/{id}\`, admin): each client IP's on the key
  (\`per_client_ip\`, default 10 requests/s, burst 20) and the key's overall one (\`overall\`, 200/s,
  burst 400), each \`{ requests_per_second, burst }\` (integers; 1-10000/s, burst 1-100000; a client
  IP's never above the overall one). One bucket per key and client IP
  (\`requestContext.http.sourceIp\`; behind the edge, \`CloudFront-Viewer-Address\`) is taken first, and the key's overall bucket only if that gave a
  token: a visitor over their own budget never spends everyone else's, so a few visitors cannot
  switch a practice's online booking off (every visitor once shared one 20/s bucket). The
  headers describe the visitor's own budget; a 429 names the budget that refused. Two writes per
  public call, as before (the key's lookup is cached). The defaults of keys made without
  \`rate_limits\` (and of keys made before keys had them) are \`RATE_LIMIT_KEY_IP_RPS\`,
  \`RATE_LIMIT_KEY_IP_BURST\`, \`RATE_LIMIT_KEY_RPS\`, \`RATE_LIMIT_KEY_BURST\`; a key keeps the limits
  it was created with. A change reaches every container within \`AUTH_CACHE_TTL_MS\` (the key's
  cached lookup carries its limits). Before the caller is known, a client IP has one more bucket
  (\`RATE_LIMIT_IP_RPS\`, \`RATE_LIMIT_IP_BURST\`, defaults 10 and 50; an item per address, so no
  shared hot partition): the token exchange takes from it before it checks a secret, and a public
  call only when its key turns out missing or unknown, so a flood of made-up keys from one address
  is 429 like any other and writes nothing in any practice; an address this container saw drained
  is refused before the key's read, with no call at all. Health, JWKS, the OpenAPI documents, the
  docs page and the CORS preflight never touch the table and are not limited per IP; on AWS API
  Gateway's stage throttling guards everything.
- **Publishable keys and CORS** (API reference, online booking): a key is \`pk_\` + its practice
  and key ids in hex, so a public call finds it and its practice in one BatchGetItem, cached per
  container for at most \`AUTH_CACHE_TTL_MS\` (a deleted key stops, and a key changed with
  \`PATCH /v1/publishable-keys/{id}\` (name, origins, rate limits; \`If-Match\` honoured, the \`ETag\` of \`GET /v1/publishable-keys/{id}\`) applies,
  within 60 s; at once on the container that made the change). Public routes take \`X-Publishable-Key\` only: a staff bearer token there is
  401 \`UNAUTHORIZED\`, and a publishable key (as \`X-Publishable-Key\` or as a bearer) on a staff
  route or the token exchange is 401 too, whatever credentials come with it. Health, JWKS, the
  OpenAPI documents, the docs and booking pages and the 404 fallback take no credential and do
  not look at it: they answer everyone alike (most are cached publicly), and a key there opens
  nothing. A waitlisted practice's public calls are 403 \`API_ACCESS_NOT_ENABLED\`, as its
  staff calls. The origin is judged once the caller is known: a request whose credential is
  missing, unknown or expired answers 401 with the CORS headers to any origin (it reveals nothing,
  and lets a web app sign in again). The API's own origin (its docs and booking pages) is always
  allowed; health, JWKS, the documents and the 404 fallback answer any origin; the token exchange
  only the API's own (a client secret has no place in a browser). \`OPTIONS\` on a \`/v1\` path no
  route has is 404 \`NOT_FOUND\`; outside \`/v1\` the fallback's 404. The preflight is no operation of
  the OpenAPI document. \`online_booking\` in \`PATCH /v1/practice\` merges the given fields into the
  stored ones; \`allowed_origins\` replaces the list. An origin (a key's or the practice's) is
  listed as a browser sends it: lower case, no default port, an IDN in its \`xn--\` form, the host a
  DNS name of letters, digits and hyphens or an IP address (so no \`*\`, \`_\` or \`;\`, no empty
  label or trailing dot), a port 1-65535; the document's schema for it carries the same
  \`pattern\` the API checks.
- **Public bookings** (API reference, online booking): the booking runs the staff create's use
  case (same claims, same transaction, \`source: "online"\`); any conflict is 409 \`SLOT_UNAVAILABLE\`
  with no details, a provider not certified for the service is 404 \`PROVIDER_NOT_FOUND\`. Without
  \`provider_id\` the certified, active providers are tried in a stable order, a lost race moving to
  the next. \`scheduled_at\` must be one of the starts public availability offers (15-minute steps
  from the start of the provider's working period that day): any other minute, second or
  millisecond is 409 \`SLOT_UNAVAILABLE\`, for a reschedule too. The client is the practice's client
  whose email matches case-insensitively, or a new client written in the booking's own transaction
  (a refused booking leaves no client behind); the answer is the same either way, and a new and a
  known email make the same DynamoDB calls in the same order (no round trip tells them apart; the
  bench measures what is left). One email is one client whatever the concurrency: an email item
  (keyed by the email's SHA-256, never the address) names the client, created under
  \`attribute_not_exists\` in the booking's transaction, so of N simultaneous first bookings one
  creates the client and the others decide again and book as it. The per-client limit is a
  condition in the same transaction: each client's ledger item holds its active online bookings'
  ends, a public booking writes it on condition of the version it read, and every other write that
  adds, moves or ends an online booking (a staff create with \`source: online\`, a move, a cancel,
  no-show, completion or delete, a client's deletion) updates it in its own transaction; so N
  simultaneous bookings by one email with k left give exactly k. Every read of a booking answers a
  freshly sealed \`manage_token\` valid until the appointment ends; a reschedule through the manage
  link moves the appointment's manage generation on, so the tokens handed out before stop working
  (404) and the answer, and the \`appointment.updated\` event, carry the new one (a staff move keeps
  the client's link working).
  appointment ends). The page's manage link is \`<base>/book?key=pk_...&booking=<id>#token=<token>\`:
  the token rides in the fragment, which no server log or \`Referer\` sees. \`GET /book\` reads the key
  for its \`frame-ancestors\` and is not limited per IP (API Gateway's throttling guards it); the
  page's script and \`book.js\` are static. \`book.js\` (cached publicly for 5 minutes) names the
  API's configured base URL, \`API_BASE_URL\`, never the request's \`Host\`, which anyone can set and
  a shared cache would hand to everyone: on AWS the stage sets it to its custom domain, else to API
  Gateway's own endpoint (which no request can change); locally the server sets it to the address
  it listens on. The OpenAPI document's \`servers\` does name the request's host, and says so with
  \`Vary: Host\`.
- **Unknown parameters and fields** are 400 \`VALIDATION_ERROR\` with \`details\` naming each one at
  its own path (\`{ "path": "address.zip", "message": "unknown field" }\`), on every \`/v1\` operation,
  those that take no query parameter at all included (the reference and booking pages' files take a
  cache-busting \`?v=\`); a missing field says
  \`"<field> is required"\`. The token exchange takes extra OAuth form fields (RFC 6749).
- **Reports** (\`GET /v1/reports/...\`: admin, manager, analyst): \`from\`/\`to\` are practice-local
  dates, inclusive; without both the last 30 days (today included), with one of them 30 days from
  it; at most 2 years (731 days), else 400 \`VALIDATION_ERROR\` naming \`to\`. Unknown parameters are
  400. Revenue \`series\` has every period touching the range, empty ones included (\`week\` is the ISO
  week, \`YYYY-Www\`); edge periods count only the days in the range. Provider performance lists every
  provider (plus deleted ones with activity), highest revenue first, with \`working_minutes\` from
  the current working hours and time off (DST-exact) and \`utilization\` null when there is no
  working time; service popularity lists the whole catalog, most booked first (\`bookings\` counts
  appointments scheduled in the range whatever their status). Ratios have 4 decimals. Figures
  come from counters the table stream keeps, so they trail writes by the stream's lag (seconds).
- **The OpenAPI document** is \`GET /v1/openapi.json\` (\`/openapi.json\`, its first path, stays and
  is marked deprecated); its \`servers\` names the host the request came to. Rules that JSON Schema
  cannot compare with today are stated a little narrower than the server applies them:
  \`date_of_birth\` takes the years 1900 to last year in the document (the server takes any past
  date). Operations say whether they are rate limited (\`x-rate-limited\`) and take an
  \`Idempotency-Key\` (\`x-idempotent\`). It is over a megabyte of JSON: send \`Accept-Encoding: gzip\`
  to get it gzipped, about 15 times smaller (API Gateway compresses nothing itself, so the function
  does). \`GET /docs\` is Swagger UI, served by the API itself.
- **Unknown routes** answer 404 \`NOT_FOUND\` in the usual envelope. A form-encoded body is taken
  only by the token endpoint (elsewhere 415 \`UNSUPPORTED_MEDIA_TYPE\`); any other body is read as
  JSON. Responses may gain new fields: ignore the ones you do not know.
- **Webhooks**: subscriptions and their delivery logs are for admins and managers; other roles
  get 403. A practice has at most 25 subscriptions (409 \`CONFLICT\`). \`events\` takes contract event
  names or \`["*"]\` alone (\`webhook.test\` goes only to \`POST .../test\`). Secrets are \`whsec_\` + 32
  random bytes in base64 (Standard Webhooks), stored AES-256-GCM encrypted. URLs: \`https://\`
  without credentials; a host resolving to any private, loopback, link-local, CGNAT, multicast or
  reserved address (IPv4-mapped and NAT64 forms too) is refused at subscribe time and at each
  delivery (locally too: there only \`http://localhost\` and \`http://127.0.0.1\`, or \`https://\`, are
  exempt), which connects only to the addresses it checked and follows no redirect.
  Success means a 2xx with its body (read up to 64 KiB) within 10 s; anything else is a failed
  attempt. \`webhook-id\` is the event id, the same on every attempt of an event. Each attempt is one
  log entry (\`pending\` while scheduled), kept 30 days; the retry after attempt n is logged as attempt
  n+1. Test and retry (\`POST .../deliveries/{id}/retry\`, which resends the logged event byte for
  byte) make one immediate attempt, answered with 200 and never retried automatically; they also
  reach a disabled subscription. Auto-disable: no successful attempt for 3 days since the first
  failure; re-enabling clears \`disabled_reason\` and starts a fresh count. \`first_failure_at\` and
  \`last_success_at\` (kept to the hour) show a subscription's health.`;
