import { httpHandler } from '../../lib/http/handler';
import { readPractice } from '../../lib/use-cases/practice';

export const handler = httpHandler('getPractice', async ({ caller }) => ({ data: await readPractice(caller.medspaId) }));
