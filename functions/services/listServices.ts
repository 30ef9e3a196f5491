import { httpHandler } from '../../lib/http/handler';
import { listServices } from '../../lib/use-cases/resources';

export const handler = httpHandler('listServices', async ({ caller, query }) => listServices(caller.medspaId, query));
