import { httpHandler } from '../../lib/http/handler';
import { listResources } from '../../lib/use-cases/resources';

export const handler = httpHandler('listRooms', async ({ caller, query }) => listResources('room', caller.medspaId, query));
