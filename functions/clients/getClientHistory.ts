import { httpHandler } from '../../lib/http/handler';
import { clientHistory } from '../../lib/use-cases/clients';

export const handler = httpHandler('getClientHistory', async ({ caller, params, query }) => clientHistory(caller.medspaId, params.id, query));
