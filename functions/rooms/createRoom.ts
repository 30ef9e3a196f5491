import { httpHandler } from '../../lib/http/handler';
import { createFacility } from '../../lib/use-cases/resources';

export const handler = httpHandler('createRoom', async ({ caller, body, now }) => ({
  data: await createFacility('room', caller.medspaId, body, now),
}));
