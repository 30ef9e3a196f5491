import { httpHandler } from '../../lib/http/handler';
import { listConsents } from '../../lib/use-cases/consents';

export const handler = httpHandler('listConsents', async ({ caller, params, query }) => listConsents(caller.medspaId, params.id, query));
