import { httpHandler } from '../../lib/http/handler';
import { listResources } from '../../lib/use-cases/resources';

export const handler = httpHandler('listClients', async ({ caller, query }) => listResources('client', caller.medspaId, query));
