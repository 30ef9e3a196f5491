import { httpHandler } from '../../lib/http/handler';
import * as photoRoutes from '../../lib/routes/photos';
import { createPhoto } from '../../lib/use-cases/photos';

export const handler = httpHandler(photoRoutes.createPhoto, async ({ caller, params, body, now, writes }) => ({
  data: await createPhoto(caller.medspaId, params.id, body, now, writes),
}));
