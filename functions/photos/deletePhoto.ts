import { httpHandler } from '../../lib/http/handler';
import * as photoRoutes from '../../lib/routes/photos';
import { removePhoto } from '../../lib/use-cases/photos';

export const handler = httpHandler(photoRoutes.deletePhoto, async ({ caller, params, ifMatch, writes }) => ({
  data: await removePhoto(caller.medspaId, params.id, { ifMatch, writes }),
}));
