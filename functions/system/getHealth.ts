import { httpHandler } from '../../lib/http/handler';

export const handler = httpHandler('getHealth', async () => ({ data: { status: 'ok' } }));
