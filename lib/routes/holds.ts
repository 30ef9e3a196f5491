import { ALLOW } from '../auth/roles';
import { defineRoutes, route } from '../http/route';
import * as appt from '../schemas/appointments';
import { Deleted } from '../schemas/common';
import * as holds from '../schemas/holds';

/** What placing a hold can refuse: a create's refusals, in its order, without the client (API reference, holds). */
const PLACEMENT_ERRORS = [
  'SERVICE_NOT_FOUND',
  'PROVIDER_NOT_FOUND',
  'PROVIDER_NOT_CERTIFIED',
  'PROVIDER_UNAVAILABLE',
  'ROOM_NOT_FOUND',
  'ROOM_UNAVAILABLE',
  'EQUIPMENT_NOT_FOUND',
  'EQUIPMENT_UNAVAILABLE',
] as const;
/** A hold that no longer holds its time, or was released or confirmed. */
const HOLD_STATE_ERRORS = ['HOLD_NOT_FOUND', 'HOLD_EXPIRED', 'HOLD_NOT_ACTIVE'] as const;
/** A hold token is sealed (at the hold) and opened under the cursor secret (lib/crypto/hold-token.ts). */
const HOLD_TOKEN = { secrets: ['cursor'] } as const;

export const createHold = /* @__PURE__ */ route('createHold', () => ({
  method: 'POST',
  path: '/v1/holds',
  group: 'appointments',
  summary: 'Hold a time for a while before booking it (claims it as an appointment would)',
  auth: ALLOW.frontOffice,
  body: holds.CreateHoldBody,
  response: holds.Hold,
  errors: PLACEMENT_ERRORS,
  writes: { holds: ['put'], claims: ['put', 'update'] },
  reads: ['claims', 'equipment', 'providers', 'rooms', 'series', 'services'],
}));

export const getHold = /* @__PURE__ */ route('getHold', () => ({
  method: 'GET',
  path: '/v1/holds/{id}',
  group: 'appointments',
  summary: 'A hold, with its status (active, confirmed, released or expired)',
  // Holds are made, released and confirmed by the front office; reading one is a read like any other (section 3).
  auth: ALLOW.readAll,
  params: holds.HoldParams,
  response: holds.Hold,
  errors: ['HOLD_NOT_FOUND'],
  reads: ['holds'],
}));

export const releaseHold = /* @__PURE__ */ route('releaseHold', () => ({
  method: 'DELETE',
  path: '/v1/holds/{id}',
  group: 'appointments',
  summary: 'Release a hold: its time is free at once',
  auth: ALLOW.frontOffice,
  params: holds.HoldParams,
  response: Deleted,
  // A hold shows no version: a release is conditioned on the hold being active instead.
  ifMatch: false,
  errors: ['HOLD_NOT_FOUND', 'HOLD_NOT_ACTIVE'],
  writes: { holds: ['update'], claims: ['update'], holdIps: ['update'] },
  reads: ['holds'],
}));

export const confirmHold = /* @__PURE__ */ route('confirmHold', () => ({
  method: 'POST',
  path: '/v1/holds/{id}/confirm',
  group: 'appointments',
  summary: 'Book the held time as an appointment (one atomic write; cannot fail for availability while active)',
  auth: ALLOW.frontOffice,
  params: holds.HoldParams,
  body: holds.ConfirmHoldBody,
  response: appt.Appointment,
  errors: [
    ...HOLD_STATE_ERRORS,
    'CLIENT_NOT_FOUND',
    'DEPOSIT_REQUIRED',
    'CLIENT_PLAN_NOT_FOUND',
    'PLAN_NOT_APPLICABLE',
    'PLAN_NOT_ACTIVE',
    'ENTITLEMENT_EXHAUSTED',
  ],
  // A deposit given is a payment in the same write (its client's spend raised); a plan's unit is reserved in it.
  writes: {
    appointments: ['put'],
    holds: ['update'],
    holdIps: ['update'],
    // A confirm rewrites the buckets its hold made: never a new one.
    claims: ['update'],
    clients: ['check', 'update'],
    onlineLedger: ['update'],
    payments: ['put'],
    clientPlans: ['check', 'update'],
    planLedger: ['put'],
  },
  reads: ['claims', 'clientPlans', 'clients', 'holds', 'providers', 'series', 'services'],
}));

export const createPublicHold = /* @__PURE__ */ route('createPublicHold', () => ({
  method: 'POST',
  path: '/v1/public/holds',
  group: 'public',
  summary: 'Hold an offered time while the client books it (600 s; at most 3 per client IP)',
  auth: 'publishable',
  body: holds.PublicHoldBody,
  response: holds.PublicHold,
  idempotent: 'required',
  errors: [
    'SERVICE_NOT_FOUND',
    'PROVIDER_NOT_FOUND',
    'SLOT_UNAVAILABLE',
    'HOLD_LIMIT_REACHED',
    'ONLINE_BOOKING_DISABLED',
  ],
  writes: { holds: ['put'], holdIps: ['put'], claims: ['put', 'update'] },
  touches: HOLD_TOKEN,
  reads: ['claims', 'holdIps', 'providers', 'services'],
}));

export const releasePublicHold = /* @__PURE__ */ route('releasePublicHold', () => ({
  method: 'DELETE',
  path: '/v1/public/holds/{hold_id}',
  group: 'public',
  summary: 'Release a hold, by its hold token (`X-Hold-Token`)',
  auth: 'publishable',
  params: holds.PublicHoldParams,
  response: Deleted,
  ifMatch: false,
  errors: ['HOLD_NOT_FOUND', 'HOLD_EXPIRED', 'HOLD_NOT_ACTIVE', 'ONLINE_BOOKING_DISABLED'],
  writes: { holds: ['update'], claims: ['update'], holdIps: ['update'] },
  touches: HOLD_TOKEN,
  reads: ['holds'],
}));

/** Holds (API reference, holds): staff holds and their confirm, and public holds by hold token. */
export const holdRoutes = /* @__PURE__ */ defineRoutes({
  createHold,
  getHold,
  releaseHold,
  confirmHold,
  createPublicHold,
  releasePublicHold,
});
