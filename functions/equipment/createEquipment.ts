import { httpHandler } from '../../lib/http/handler';
import { createFacility } from '../../lib/use-cases/resources';

export const handler = httpHandler('createEquipment', async ({ caller, body, now }) => ({
  data: await createFacility('equipment', caller.medspaId, body, now),
}));
