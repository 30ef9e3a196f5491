import { ALLOW } from '../auth/roles';
import { defineRoutes, route, list } from '../http/route';
import * as pay from '../schemas/payments';
import { ResourceParams } from '../schemas/resources';

export const listPayments = /* @__PURE__ */ route('listPayments', () => ({
  method: 'GET',
  path: '/v1/payments',
  group: 'payments',
  summary: 'List payments by practice-local date range and/or client, newest first',
  auth: ALLOW.paymentRead,
  query: pay.ListPaymentsQuery,
  response: list(pay.Payment),
  reads: ['clientPayments', 'paymentsByMonth'],
}));

export const createPayment = /* @__PURE__ */ route('createPayment', () => ({
  method: 'POST',
  path: '/v1/payments',
  group: 'payments',
  summary:
    "Record a payment (raises the client's total_spent_cents atomically; a deposit raises its appointment's deposit_paid_cents, a fee payment lowers its due fee, in the same write)",
  auth: ALLOW.frontOffice,
  body: pay.CreatePaymentBody,
  response: pay.Payment,
  errors: ['CLIENT_NOT_FOUND', 'APPOINTMENT_NOT_FOUND', 'VERSION_CONFLICT'],
  writes: { appointments: ['check', 'update'], clients: ['update'], payments: ['put'] },
  reads: ['appointments'],
}));

export const getPayment = /* @__PURE__ */ route('getPayment', () => ({
  method: 'GET',
  path: '/v1/payments/{id}',
  group: 'payments',
  summary: 'Get a payment',
  auth: ALLOW.paymentRead,
  params: ResourceParams,
  response: pay.Payment,
  errors: ['PAYMENT_NOT_FOUND'],
  reads: ['payments'],
}));

/** Payments (API reference, other resources): recorded with the client's total spend; immutable. */
export const paymentRoutes = /* @__PURE__ */ defineRoutes({ listPayments, createPayment, getPayment });
