import { httpHandler } from '../../lib/http/handler';
import * as photoRoutes from '../../lib/routes/photos';
import { listPhotos } from '../../lib/use-cases/photos';

export const handler = httpHandler(photoRoutes.listClientPhotos, async ({ caller, params, query, now }) =>
  listPhotos(caller.medspaId, params.id, query, now),
);
