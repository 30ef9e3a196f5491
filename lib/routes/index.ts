import { appointmentRoutes } from './appointments';
import { authRoutes } from './auth';
import { clientRoutes } from './clients';
import { eventRoutes } from './events';
import { holdRoutes } from './holds';
import { seriesRoutes } from './series';
import { paymentRoutes } from './payments';
import { photoRoutes } from './photos';
import { formRoutes } from './forms';
import { planRoutes } from './plans';
import { productRoutes } from './products';
import { publicBookingRoutes } from './public-booking';
import { publicRoutes } from './public';
import { bookingPageRoutes } from './booking-page';
import { reportRoutes } from './reports';
import { resourceRoutes } from './resources';
import { systemRoutes } from './system';
import { treatmentRecordRoutes } from './treatment-records';
import { waitlistRoutes } from './waitlist';
import { webhookRoutes } from './webhooks';

/**
 * The route table: the single source for the CDK stack (one Lambda per operation), the local
 * server, the OpenAPI document and the typed client. Keys are the contract's operation names;
 * each section lives beside its resource group.
 */
export const routes = {
  ...authRoutes,
  ...publicRoutes,
  ...resourceRoutes,
  ...clientRoutes,
  ...photoRoutes,
  ...formRoutes,
  ...appointmentRoutes,
  ...treatmentRecordRoutes,
  ...holdRoutes,
  ...seriesRoutes,
  ...waitlistRoutes,
  ...productRoutes,
  ...paymentRoutes,
  ...planRoutes,
  ...webhookRoutes,
  ...eventRoutes,
  ...publicBookingRoutes,
  ...bookingPageRoutes,
  ...reportRoutes,
  ...systemRoutes,
};

export type Routes = typeof routes;
