import { tablelessHandler } from '../../lib/http/tableless-handler';
import * as authRoutes from '../../lib/routes/auth';

export const handler = tablelessHandler(authRoutes.getHealth, async () => ({ data: { status: 'ok' } }));
