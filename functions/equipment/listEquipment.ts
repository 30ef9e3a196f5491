import { httpHandler } from '../../lib/http/handler';
import { listResources } from '../../lib/use-cases/resources';

export const handler = httpHandler('listEquipment', async ({ caller, query }) => listResources('equipment', caller.medspaId, query));
