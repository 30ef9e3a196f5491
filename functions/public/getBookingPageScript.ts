import { bookingAppScriptResponse } from '../../lib/booking-page/page';

export const handler = async () => bookingAppScriptResponse();
