import { httpHandler } from '../../lib/http/handler';
import * as eventRoutes from '../../lib/routes/events';
import { listEvents } from '../../lib/use-cases/event-feed';

export const handler = httpHandler(eventRoutes.listEvents, async ({ caller, query }) =>
  listEvents(caller.medspaId, query),
);
