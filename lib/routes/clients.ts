import { ALLOW } from '../auth/roles';
import { defineRoutes, list } from '../http/route';
import * as c from '../schemas/clients';
import { Deleted, PageQuery } from '../schemas/common';
import * as r from '../schemas/resources';
import { editableRoutes } from './resources';

/** An unknown `{id}`. */
const NOT_FOUND = ['CLIENT_NOT_FOUND'] as const;

/** Clients, their history and consents (API reference, other resources). */
export const clientRoutes = defineRoutes({
  ...editableRoutes({
    single: 'Client', plural: 'Clients', group: 'clients', noun: 'client',
    item: r.Client, create: r.CreateClientBody, update: r.UpdateClientBody, query: r.ClientListQuery, write: ALLOW.frontOffice, notFound: 'CLIENT_NOT_FOUND',
    // The search terms are written, rewritten and erased with their client.
    writes: { create: { clientSearch: ['put'], clients: ['put'] }, update: { clientSearch: ['delete', 'put'], clients: ['update'] } },
  }),
  deleteClient: {
    method: 'DELETE', path: '/v1/clients/{id}', group: 'clients',
    summary: 'Delete a client: erases personal data, hides it (then 404), cancels its future appointments (reason client_deleted); anonymised history stays for reports',
    auth: ALLOW.frontOffice, params: r.ResourceParams, response: Deleted,
    errors: NOT_FOUND,
    writes: { appointments: ['update'], claims: ['update'], clientSearch: ['delete'], clients: ['update'] },
  },
  getClientHistory: {
    method: 'GET', path: '/v1/clients/{id}/history', group: 'clients', summary: 'Completed appointments of a client with their treatment records, newest first',
    auth: ALLOW.readAll, params: r.ResourceParams, query: PageQuery, response: list(c.ClientHistoryEntry),
    errors: NOT_FOUND,
  },
  createConsent: {
    method: 'POST', path: '/v1/clients/{id}/consents', group: 'clients', summary: 'Record a consent form the client signed',
    auth: ALLOW.frontOffice, params: r.ResourceParams, body: c.CreateConsentBody, response: c.Consent,
    errors: [...NOT_FOUND, 'APPOINTMENT_NOT_FOUND'],
    writes: { clients: ['check'], consents: ['put'] },
  },
  listConsents: {
    method: 'GET', path: '/v1/clients/{id}/consents', group: 'clients', summary: "A client's signed consent forms, newest signed first",
    auth: ALLOW.readAll, params: r.ResourceParams, query: PageQuery, response: list(c.Consent),
    errors: NOT_FOUND,
  },
});
