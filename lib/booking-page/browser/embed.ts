/// <reference lib="dom" />
/**
 * GET /book.js: put `<script src="<base>/book.js" data-key="pk_..."></script>` where the booking
 * page should appear; it mounts an iframe of `<base>/book?key=pk_...` right after the tag. The page
 * reports its height with postMessage; only messages from the API's origin and that very frame count.
 * Optional attributes: data-title (the frame's accessible name), data-height (first height, px).
 */
declare const BOOK_BASE: string;

(() => {
  const base = BOOK_BASE.replace(/\/+$/, '');
  const origin = new URL(base).origin;
  const own = document.currentScript as HTMLScriptElement | null;
  // Without currentScript (a script inserted by a tag manager in some browsers): every tag of ours not yet mounted.
  const tags = own
    ? [own]
    : Array.from(document.querySelectorAll<HTMLScriptElement>('script[data-key]')).filter(
        (tag) => tag.src.split('?')[0] === `${base}/book.js`,
      );
  for (const tag of tags) {
    const key = tag.dataset.key;
    if (tag.hasAttribute('data-mounted')) continue;
    if (!key) {
      console.error('book.js: add data-key="pk_..." (your publishable key) to the script tag');
      continue;
    }
    tag.setAttribute('data-mounted', '');
    const frame = document.createElement('iframe');
    frame.src = `${base}/book?key=${encodeURIComponent(key)}`;
    frame.title = tag.dataset.title || 'Book an appointment';
    frame.setAttribute('referrerpolicy', 'no-referrer');
    Object.assign(frame.style, {
      display: 'block',
      width: '100%',
      maxWidth: '100%',
      border: '0',
      height: `${Number(tag.dataset.height) || 720}px`,
      colorScheme: 'normal',
    });
    tag.insertAdjacentElement('afterend', frame);
    window.addEventListener('message', (event) => {
      if (event.origin !== origin || event.source !== frame.contentWindow) return;
      const data = event.data as { type?: unknown; height?: unknown } | null;
      if (
        data?.type === 'medspa-booking:height' &&
        typeof data.height === 'number' &&
        data.height > 0 &&
        data.height < 100_000
      ) {
        frame.style.height = `${Math.ceil(data.height)}px`;
      } else if (data?.type === 'medspa-booking:top' && frame.getBoundingClientRect().top < 0) {
        frame.scrollIntoView({ block: 'start' });
      }
    });
  }
})();
