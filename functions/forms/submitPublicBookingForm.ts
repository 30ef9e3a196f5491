import { httpHandler } from '../../lib/http/handler';
import * as formRoutes from '../../lib/routes/forms';
import { submitBookingForm } from '../../lib/use-cases/public-forms';

export const handler = httpHandler(
  formRoutes.submitPublicBookingForm,
  async ({ caller, params, body, headers, clientIp, now, writes }) => ({
    data: await submitBookingForm(caller.medspaId, params.appointment_id, headers['x-booking-token'], body, {
      now,
      writes,
      ip: clientIp,
      userAgent: headers['user-agent'],
    }),
  }),
);
