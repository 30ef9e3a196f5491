import { httpHandler } from '../../lib/http/handler';
import * as publicRoutes from '../../lib/routes/public';

// The response schema keeps only what a stranger may see.
export const handler = httpHandler(publicRoutes.getPublicPractice, async ({ practice }) => ({ data: practice }));
