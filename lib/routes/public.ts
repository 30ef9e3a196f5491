import { defineRoutes } from '../http/route';
import { PublicPractice } from '../schemas/public';

/**
 * Online booking from browsers (API reference, online booking): called with a publishable key
 * (`auth: 'publishable'`), its practice at hand as `request.practice`.
 */
export const publicRoutes = defineRoutes({
  getPublicPractice: {
    method: 'GET', path: '/v1/public/practice', group: 'public', summary: 'The practice as its booking page shows it',
    auth: 'publishable', response: PublicPractice,
  },
});
