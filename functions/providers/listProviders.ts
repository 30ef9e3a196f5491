import { httpHandler } from '../../lib/http/handler';
import { listResources } from '../../lib/use-cases/resources';

export const handler = httpHandler('listProviders', async ({ caller, query }) => listResources('provider', caller.medspaId, query));
