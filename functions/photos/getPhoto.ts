import { httpHandler } from '../../lib/http/handler';
import * as photoRoutes from '../../lib/routes/photos';
import { readPhoto } from '../../lib/use-cases/photos';

export const handler = httpHandler(photoRoutes.getPhoto, async ({ caller, params, now }) => ({
  data: await readPhoto(caller.medspaId, params.id, now),
}));
