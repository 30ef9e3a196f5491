import { httpHandler } from '../../lib/http/handler';
import * as formRoutes from '../../lib/routes/forms';
import { listBookingForms } from '../../lib/use-cases/public-forms';

export const handler = httpHandler(formRoutes.listPublicBookingForms, async ({ caller, params, headers, now }) => ({
  data: await listBookingForms(caller.medspaId, params.appointment_id, headers['x-booking-token'], now),
}));
