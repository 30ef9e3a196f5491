import { httpHandler } from '../../lib/http/handler';
import { listClients } from '../../lib/use-cases/clients';

export const handler = httpHandler('listClients', async ({ caller, query, now }) => listClients(caller.medspaId, query, now));
