export const APPOINTMENT_STATUSES = [
  'scheduled',
  'confirmed',
  'checked_in',
  'in_progress',
  'completed',
  'cancelled',
  'no_show',
] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];

/** Statuses that hold their time: they block the provider, room and equipment. */
export const ACTIVE_STATUSES = ['scheduled', 'confirmed', 'checked_in', 'in_progress'] as const;
export type ActiveStatus = (typeof ACTIVE_STATUSES)[number];

export function isActive(status: AppointmentStatus): status is ActiveStatus {
  return (ACTIVE_STATUSES as readonly AppointmentStatus[]).includes(status);
}

// The contract's table (section 4), the only source of allowed moves. completed, cancelled and
// no_show are final; a move to the same status is not a move.
const TRANSITIONS: Record<AppointmentStatus, readonly AppointmentStatus[]> = {
  scheduled: ['confirmed', 'cancelled'],
  confirmed: ['checked_in', 'cancelled'],
  checked_in: ['in_progress', 'no_show'],
  in_progress: ['completed', 'cancelled'],
  completed: [],
  cancelled: [],
  no_show: [],
};

export function canTransition(from: AppointmentStatus, to: AppointmentStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** Only appointments that have not started may change time or resources. */
export function isMovable(status: AppointmentStatus): boolean {
  return status === 'scheduled' || status === 'confirmed';
}
