/** The five roles of the API reference's authentication and access section. */
export const ROLES = ['admin', 'manager', 'front_desk', 'provider', 'analyst'] as const;
export type Role = (typeof ROLES)[number];

/** Who may do what, named by capability so the route table reads like the contract. */
export const ALLOW = {
  everyone: [...ROLES],
  adminOnly: ['admin'],
  /** Practice data reads for every role (catalog, clients, appointments). */
  readAll: ['admin', 'manager', 'front_desk', 'provider', 'analyst'],
  /** Client, appointment, payment and consent changes. */
  frontOffice: ['admin', 'manager', 'front_desk'],
  /** Appointment status moves and treatment records. */
  clinical: ['admin', 'manager', 'front_desk', 'provider'],
  /** Treatment records are clinical documentation: written by providers (and managers), not the front desk. */
  treatmentRecords: ['admin', 'manager', 'provider'],
  /** Inventory reads: the front desk sells, providers only see the service catalog (API reference, authentication and access). */
  inventoryRead: ['admin', 'manager', 'front_desk', 'analyst'],
  /** Catalog and inventory setup. */
  catalogWrite: ['admin', 'manager'],
  /** Payments: taken by the front desk, read by analysts too. */
  paymentRead: ['admin', 'manager', 'front_desk', 'analyst'],
  /** Webhook subscriptions and their delivery logs (API reference, webhooks and events: admin and manager). */
  webhooks: ['admin', 'manager'],
  /** Waiving a late-cancel or no-show fee (API reference, section 11): money forgiven is a manager's call. */
  feeWaivers: ['admin', 'manager'],
  /** The waitlist (API reference, waitlist): the front office's; analysts read it as they read everything. */
  waitlistRead: ['admin', 'manager', 'front_desk', 'analyst'],
  /** Reports: not the front desk nor providers (API reference, authentication and access). */
  reports: ['admin', 'manager', 'analyst'],
  /** The event feed (API reference, section 15): what the practice emitted, for its integrations and analysts. */
  events: ['admin', 'manager', 'analyst'],
} as const satisfies Record<string, readonly Role[]>;
