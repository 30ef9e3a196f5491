import { ALLOW } from '../auth/roles';
import { defineRoutes, route, list } from '../http/route';
import * as c from '../schemas/clients';
import * as cc from '../schemas/contact-consents';
import { HISTORY_SHOWN } from '../domain/contact-consent';
import { Deleted, PageQuery } from '../schemas/common';
import * as r from '../schemas/resources';
import { createRoute, getRoute, kind, listRoute, updateRoute } from './resources';

/** An unknown `{id}`. */
const NOT_FOUND = ['CLIENT_NOT_FOUND'] as const;

const clients = /* @__PURE__ */ kind({
  single: 'Client',
  plural: 'Clients',
  group: 'clients',
  noun: 'client',
  write: ALLOW.frontOffice,
  notFound: 'CLIENT_NOT_FOUND',
  // The search terms are written, rewritten and erased with their client.
  writes: {
    create: { clientSearch: ['put'], clients: ['put'] },
    update: { clientSearch: ['delete', 'put'], clients: ['update'] },
  },
  // `?q=` lists through the search terms, `?consent=` through its list (section 14).
  reads: { list: ['clientSearch', 'clients', 'consentedClients'], create: [], get: ['clients'], update: ['clients'] },
  // The membership fields while a membership plan governs them (section 12).
  errors: { update: ['MEMBERSHIP_MANAGED_BY_PLAN'] },
});
export const listClients = /* @__PURE__ */ listRoute(clients, r.Client, r.ClientListQuery);
export const createClient = /* @__PURE__ */ createRoute(clients, r.Client, r.CreateClientBody);
export const getClient = /* @__PURE__ */ getRoute(clients, r.Client);
export const updateClient = /* @__PURE__ */ updateRoute(clients, r.Client, r.UpdateClientBody);

export const deleteClient = /* @__PURE__ */ route('deleteClient', () => ({
  method: 'DELETE',
  path: '/v1/clients/{id}',
  group: 'clients',
  summary:
    'Delete a client: erases personal data, hides it (then 404), cancels its future appointments (reason client_deleted); anonymised history stays for reports',
  auth: ALLOW.frontOffice,
  params: r.ResourceParams,
  response: Deleted,
  errors: NOT_FOUND,
  writes: {
    appointments: ['update'],
    claims: ['update'],
    clientSearch: ['delete'],
    clients: ['update'],
    onlineLedger: ['update'],
    // Its plan-booked appointments' units are released (section 12).
    clientPlans: ['update'],
    planLedger: ['put'],
    // Its photos are deleted, images included (section 13).
    photos: ['delete'],
    // It leaves the marketing consent lists (section 14).
    consentedClients: ['delete'],
  },
  reads: ['appointments', 'clientAppointments', 'clientPhotos', 'clientPlans', 'clients'],
  touches: { photos: ['delete'] },
}));

export const getClientHistory = /* @__PURE__ */ route('getClientHistory', () => ({
  method: 'GET',
  path: '/v1/clients/{id}/history',
  group: 'clients',
  summary: 'Completed appointments of a client with their treatment records, newest first',
  auth: ALLOW.readAll,
  params: r.ResourceParams,
  query: PageQuery,
  response: list(c.ClientHistoryEntry),
  errors: NOT_FOUND,
  reads: ['appointments', 'clientAppointments', 'clients'],
}));

export const createConsent = /* @__PURE__ */ route('createConsent', () => ({
  method: 'POST',
  path: '/v1/clients/{id}/consents',
  group: 'clients',
  summary: 'Record a consent form the client signed',
  auth: ALLOW.frontOffice,
  params: r.ResourceParams,
  body: c.CreateConsentBody,
  response: c.Consent,
  errors: [...NOT_FOUND, 'APPOINTMENT_NOT_FOUND'],
  writes: { clients: ['check'], consents: ['put'] },
  reads: ['appointments', 'clients'],
}));

export const listConsents = /* @__PURE__ */ route('listConsents', () => ({
  method: 'GET',
  path: '/v1/clients/{id}/consents',
  group: 'clients',
  summary: "A client's signed consent forms, newest signed first",
  auth: ALLOW.readAll,
  params: r.ResourceParams,
  query: PageQuery,
  response: list(c.Consent),
  errors: NOT_FOUND,
  reads: ['clients', 'consents'],
}));

export const setContactConsent = /* @__PURE__ */ route('setContactConsent', () => ({
  method: 'PUT',
  path: '/v1/clients/{id}/contact-consents/{channel}/{purpose}',
  group: 'clients',
  summary:
    "Record a change of a client's contact consent for one channel and purpose: a new history entry (every call), which becomes the current state; answers that entry",
  auth: ALLOW.frontOffice,
  params: cc.ContactConsentParams,
  body: cc.SetContactConsentBody,
  response: cc.ContactConsentChange,
  // Each call records an entry: a retry with the same Idempotency-Key replays instead of recording twice.
  idempotent: true,
  errors: NOT_FOUND,
  writes: {
    clients: ['check'],
    contactConsents: ['put'],
    consentedClients: ['put', 'delete'],
  },
  reads: ['clients', 'contactConsents'],
}));

export const getContactConsents = /* @__PURE__ */ route('getContactConsents', () => ({
  method: 'GET',
  path: '/v1/clients/{id}/contact-consents',
  group: 'clients',
  summary: `A client's contact consents: the current state of each channel and purpose, and the latest ${HISTORY_SHOWN} changes, newest first`,
  auth: ALLOW.readAll,
  params: r.ResourceParams,
  response: cc.ContactConsents,
  errors: NOT_FOUND,
  reads: ['clients', 'contactConsents'],
}));

/** Clients, their history and consents (API reference, other resources). */
export const clientRoutes = /* @__PURE__ */ defineRoutes({
  listClients,
  createClient,
  getClient,
  updateClient,
  deleteClient,
  getClientHistory,
  createConsent,
  listConsents,
  setContactConsent,
  getContactConsents,
});
