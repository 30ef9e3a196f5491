/// <reference lib="dom" />
/**
 * The booking page (GET /book?key=pk_...): loaded from /book/app.js by the page the API serves,
 * it calls only the public API on its own origin (or the page's `medspa-api-base`).
 */
import { createApi, problemOf, retryable, type Practice } from './api';
import { showBooking } from './booking';
import type { Context } from './context';
import { button, fill, h } from './dom';
import { deviceZoneDiffers, zoneName } from './format';
import { describeProblem } from './messages';
import { showManage } from './manage';

/** The messages this page sends an embedding page (book.js listens for them). */
const MESSAGE = { height: 'medspa-booking:height', top: 'medspa-booking:top' } as const;

const embedded = window.parent !== window;
const meta = (name: string) => document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? '';

/** In a frame: tell the embedding page our height whenever it changes (book.js checks the origin). */
function reportHeight(): void {
  let last = 0;
  const post = () => {
    const height = Math.ceil(document.body.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    window.parent.postMessage({ type: MESSAGE.height, height }, '*');
  };
  new ResizeObserver(post).observe(document.body);
  post();
}

function toTop(): void {
  window.scrollTo(0, 0);
  if (embedded) window.parent.postMessage({ type: MESSAGE.top }, '*');
}

async function start(root: HTMLElement): Promise<void> {
  const params = new URLSearchParams(location.search);
  const key = meta('medspa-booking-key') || params.get('key') || '';
  const base = new URL(meta('medspa-api-base') || '.', location.href);
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  root.setAttribute('aria-busy', 'true');
  if (!/^pk_\S+$/.test(key)) {
    fill(
      root,
      h('h1', null, 'Online booking'),
      h(
        'p',
        { class: 'notice', role: 'alert' },
        'This booking link is incomplete: it has no publishable key. Please use the link from the practice’s website.',
      ),
    );
    root.setAttribute('aria-busy', 'false');
    return;
  }
  const api = createApi(base.href, key);
  let practice: Practice;
  try {
    practice = await api.get('v1/public/practice', {});
  } catch (error) {
    const problem = problemOf(error);
    fill(
      root,
      h('h1', null, 'Online booking'),
      h('p', { class: 'notice', role: 'alert' }, describeProblem(problem)),
      retryable(problem) ? button('secondary', 'Try again', () => start(root)) : null,
    );
    root.setAttribute('aria-busy', 'false');
    return;
  }
  document.title = `Book at ${practice.name}`;
  const content = h('div', { class: 'content' });
  fill(
    root,
    h(
      'header',
      null,
      h('h1', null, practice.name),
      h(
        'p',
        { class: 'caption' },
        `Online booking. Times are in ${zoneName(practice.time_zone)}${deviceZoneDiffers(practice.time_zone) ? ', the practice’s time zone' : ''}.`,
      ),
    ),
    content,
  );
  root.setAttribute('aria-busy', 'false');
  const ctx: Context = { api, practice, key, content, toTop };
  const booking = params.get('booking');
  await (booking ? showManage(ctx, booking) : showBooking(ctx));
}

const root = document.getElementById('app');
if (root) {
  if (embedded) reportHeight();
  void start(root);
}
