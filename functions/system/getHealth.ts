import { httpHandler } from '../../lib/http/handler';
import * as authRoutes from '../../lib/routes/auth';

export const handler = httpHandler(authRoutes.getHealth, async () => ({ data: { status: 'ok' } }));
