import { ALLOW } from '../auth/roles';
import { defineRoutes, list, route } from '../http/route';
import * as appt from '../schemas/appointments';
import { Deleted } from '../schemas/common';
import * as wl from '../schemas/waitlist';

/**
 * The waitlist (API reference, waitlist; docs/decisions/0032): entries, and their offers accepted
 * or declined. Offers are made by the waitlist worker from freed time, never by these routes.
 */

/**
 * Ending an offer releases its hold (its claims) with the entry and its freed time. An offer's hold
 * is the practice's, never a public one: no IP place, no online ledger, no series to touch.
 */
const OFFER_END_WRITES = {
  waitlist: ['put'],
  waitlistFreed: ['put'],
  holds: ['update'],
  claims: ['update'],
} as const;

export const createWaitlistEntry = /* @__PURE__ */ route('createWaitlistEntry', () => ({
  method: 'POST',
  path: '/v1/waitlist',
  group: 'waitlist',
  summary: 'Put a client on the waitlist for a service (no offer is made until time frees up)',
  auth: ALLOW.frontOffice,
  body: wl.CreateWaitlistEntryBody,
  response: wl.WaitlistEntry,
  errors: ['CLIENT_NOT_FOUND', 'SERVICE_NOT_FOUND', 'PROVIDER_NOT_FOUND', 'PROVIDER_NOT_CERTIFIED'],
  writes: { waitlist: ['put'], clients: ['check'], waitlistDue: ['put'], waitlistInUse: ['update'] },
  reads: ['clients', 'providers', 'services'],
}));

export const listWaitlist = /* @__PURE__ */ route('listWaitlist', () => ({
  method: 'GET',
  path: '/v1/waitlist',
  group: 'waitlist',
  summary: "List waitlist entries: a service's oldest first, or all; by status",
  auth: ALLOW.waitlistRead,
  query: wl.ListWaitlistQuery,
  response: list(wl.WaitlistEntry),
  reads: ['waitlist', 'waitlistByService'],
}));

export const getWaitlistEntry = /* @__PURE__ */ route('getWaitlistEntry', () => ({
  method: 'GET',
  path: '/v1/waitlist/{id}',
  group: 'waitlist',
  summary: 'A waitlist entry, with its current offer',
  auth: ALLOW.waitlistRead,
  params: wl.WaitlistParams,
  response: wl.WaitlistEntry,
  errors: ['WAITLIST_ENTRY_NOT_FOUND'],
  reads: ['waitlist'],
}));

export const deleteWaitlistEntry = /* @__PURE__ */ route('deleteWaitlistEntry', () => ({
  method: 'DELETE',
  path: '/v1/waitlist/{id}',
  group: 'waitlist',
  summary: 'Take a client off the waitlist (status cancelled; an offer is withdrawn and its time moves on)',
  auth: ALLOW.frontOffice,
  params: wl.WaitlistParams,
  response: Deleted,
  errors: ['WAITLIST_ENTRY_NOT_FOUND', 'CONFLICT'],
  writes: OFFER_END_WRITES,
  reads: ['holds', 'waitlist', 'waitlistFreed'],
}));

export const acceptWaitlistOffer = /* @__PURE__ */ route('acceptWaitlistOffer', () => ({
  method: 'POST',
  path: '/v1/waitlist/{id}/accept',
  group: 'waitlist',
  summary: "Book the entry's offered time (through its hold, in one atomic write); the entry becomes booked",
  auth: ALLOW.frontOffice,
  params: wl.WaitlistParams,
  response: appt.Appointment,
  errors: ['WAITLIST_ENTRY_NOT_FOUND', 'NO_ACTIVE_OFFER', 'OFFER_EXPIRED', 'CLIENT_NOT_FOUND', 'DEPOSIT_REQUIRED'],
  // The hold confirm's own writes (lib/routes/holds.ts confirmHold) but a public hold's, the entry with them.
  writes: {
    appointments: ['put'],
    holds: ['update'],
    claims: ['update'],
    clients: ['check'],
    waitlist: ['put'],
  },
  reads: ['claims', 'clients', 'holds', 'providers', 'services', 'waitlist'],
}));

export const declineWaitlistOffer = /* @__PURE__ */ route('declineWaitlistOffer', () => ({
  method: 'POST',
  path: '/v1/waitlist/{id}/decline',
  group: 'waitlist',
  summary: 'Decline the offer: its hold is released, the entry waits again and the time goes to the next entry',
  auth: ALLOW.frontOffice,
  params: wl.WaitlistParams,
  response: wl.WaitlistEntry,
  successStatus: 200,
  errors: ['WAITLIST_ENTRY_NOT_FOUND', 'NO_ACTIVE_OFFER'],
  writes: OFFER_END_WRITES,
  reads: ['holds', 'waitlist', 'waitlistFreed'],
}));

/** Waitlist (API reference, waitlist). */
export const waitlistRoutes = /* @__PURE__ */ defineRoutes({
  createWaitlistEntry,
  listWaitlist,
  getWaitlistEntry,
  deleteWaitlistEntry,
  acceptWaitlistOffer,
  declineWaitlistOffer,
});
