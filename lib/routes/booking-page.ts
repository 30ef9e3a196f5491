import * as z from '../schemas/zod';
import { defineRoutes, route } from '../http/route';
import { doc } from '../schemas/common';

const html = { 'text/html': { description: 'The booking page.', example: '<!doctype html>...' } };
const script = { 'text/javascript': { description: 'A script.', example: '(()=>{...})()' } };

export const getBookingPage = /* @__PURE__ */ route('getBookingPage', () => ({
  method: 'GET',
  head: true,
  path: '/book',
  group: 'public',
  summary: "A practice's online booking page (self-contained; `?key=pk_...`)",
  auth: 'public',
  envelope: false,
  produces: html,
  query: z.object({
    key: z.optional(
      doc(z.string().check(z.maxLength(200)), 'A publishable key of the practice.', 'pk_0123456789abcdef'),
    ),
    booking: z.optional(
      doc(
        z.string().check(z.maxLength(64)),
        'A booking to manage (the manage link; its token follows in the fragment, `#token=...`).',
        '0b6a1e5e-3c2d-4f7b-8a9c-1d2e3f4a5b6c',
      ),
    ),
  }),
  reads: ['practice', 'publishableKeys'],
}));

export const getBookingPageScript = /* @__PURE__ */ route('getBookingPageScript', () => ({
  method: 'GET',
  path: '/book/app.js',
  group: 'public',
  summary: "The booking page's script",
  auth: 'public',
  envelope: false,
  touches: { table: false },
  produces: script,
  query: z.object({
    v: z.optional(doc(z.string().check(z.maxLength(64)), 'The script version (cache busting).', '0123456789abcdef')),
  }),
}));

export const getBookingEmbed = /* @__PURE__ */ route('getBookingEmbed', () => ({
  method: 'GET',
  path: '/book.js',
  group: 'public',
  summary: 'The embed: `<script src="<base>/book.js" data-key="pk_..."></script>` mounts the booking page in an iframe',
  auth: 'public',
  envelope: false,
  touches: { table: false },
  produces: script,
}));

/**
 * The online booking page and its embed (API reference, online booking): plain handlers serving
 * lib/booking-page's files, every asset from this API. The page calls the public operations with
 * the key in its address; which sites may frame it is the key's `allowed_origins`.
 */
export const bookingPageRoutes = /* @__PURE__ */ defineRoutes({
  getBookingPage,
  getBookingPageScript,
  getBookingEmbed,
});
