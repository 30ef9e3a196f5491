import { httpHandler } from '../../lib/http/handler';
import { changePractice } from '../../lib/use-cases/practice';

export const handler = httpHandler('updatePractice', async ({ caller, body, ifMatch, now }) => ({
  data: await changePractice(caller.medspaId, body, { ifMatch, now }),
}));
