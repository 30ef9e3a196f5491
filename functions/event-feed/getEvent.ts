import { httpHandler } from '../../lib/http/handler';
import * as eventRoutes from '../../lib/routes/events';
import { readEvent } from '../../lib/use-cases/event-feed';

export const handler = httpHandler(eventRoutes.getEvent, async ({ caller, params }) => ({
  data: await readEvent(caller.medspaId, params.id),
}));
