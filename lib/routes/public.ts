import { defineRoutes, route } from '../http/route';
import { PublicPractice } from '../schemas/public';

export const getPublicPractice = /* @__PURE__ */ route('getPublicPractice', () => ({
  method: 'GET',
  path: '/v1/public/practice',
  group: 'public',
  summary: 'The practice as its booking page shows it',
  auth: 'publishable',
  response: PublicPractice,
  reads: [],
}));

/**
 * Online booking from browsers (API reference, online booking): called with a publishable key
 * (`auth: 'publishable'`), its practice at hand as `request.practice`.
 */
export const publicRoutes = /* @__PURE__ */ defineRoutes({ getPublicPractice });
