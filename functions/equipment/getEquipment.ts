import { httpHandler } from '../../lib/http/handler';
import { readResource } from '../../lib/use-cases/resources';

export const handler = httpHandler('getEquipment', async ({ caller, params }) => ({
  data: await readResource('equipment', caller.medspaId, params.id),
}));
