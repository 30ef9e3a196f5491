import type { Page } from '../db/query';

/** A list page in the contract's envelope (its own module: every list imports it, and nothing else). */
export interface ListResult<T> {
  data: T[];
  pagination: { total: number; next_cursor: string | null };
  /** The cursor after `data[index]`, when the page reader can make one (Page.cursorAfter). */
  cursorAfter?: (index: number) => string | null;
}

export const toListResult = <T>(page: Page<T>): ListResult<T> => ({
  data: page.items,
  pagination: { total: page.total, next_cursor: page.nextCursor },
  ...(page.cursorAfter ? { cursorAfter: page.cursorAfter } : {}),
});
