/// <reference lib="dom" />
import type { Api, Practice } from './api';

/** What every view of the page shares. */
export interface Context {
  api: Api;
  practice: Practice;
  key: string;
  /** The element a view renders into (below the practice's name). */
  content: HTMLElement;
  /** A view replaced the page's content: bring its top into sight (also in an embedding page). */
  toTop(): void;
}

/** The manage view of a booking, from the page's address: the token in the fragment, which browsers never send to a server. */
export function manageLink(page: string, key: string, appointmentId: string, token: string): string {
  const url = new URL(page);
  url.search = new URLSearchParams({ key, booking: appointmentId }).toString();
  url.hash = `token=${encodeURIComponent(token)}`;
  return url.href;
}

/** The booking view for the same key. */
export function bookLink(page: string, key: string): string {
  const url = new URL(page);
  url.search = new URLSearchParams({ key }).toString();
  url.hash = '';
  return url.href;
}

export const tokenFromFragment = (page: string): string =>
  new URLSearchParams(new URL(page).hash.slice(1)).get('token') ?? '';
