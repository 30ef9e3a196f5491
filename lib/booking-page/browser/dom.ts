/// <reference lib="dom" />
/** A few DOM helpers: the page has no framework, it builds its elements with `h`. */

type Child = Node | string | null | undefined | false;
type Value = string | number | boolean | null | undefined | ((event: Event) => void);

/**
 * An element: `onclick`-style keys add listeners, `true` sets an empty attribute, null, undefined
 * and false leave it out (so `disabled: false` is not disabled).
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Record<string, Value> | null,
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value == null || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

export function append(parent: Node, children: (Child | Child[])[]): void {
  for (const child of children.flat())
    if (child != null && child !== false)
      parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
}

/** Replaces an element's children. */
export function fill(parent: Element, ...children: (Child | Child[])[]): void {
  parent.replaceChildren();
  append(parent, children);
}

let counter = 0;
/** A document-unique id for labels and descriptions. */
export const uid = (prefix: string) => `${prefix}-${++counter}`;

/** A heading that scripts may focus (after a step completes) without adding it to the tab order. */
export const focusTarget = <K extends 'h1' | 'h2' | 'p' | 'div'>(
  tag: K,
  attrs: Record<string, Value>,
  ...children: (Child | Child[])[]
) => h(tag, { ...attrs, tabindex: '-1' }, ...children);

/** Announces a short text to screen readers through the page's polite live region. */
export function announce(text: string): void {
  const region = document.getElementById('live');
  if (!region) return;
  region.textContent = '';
  // A change after a tick, so the same text said twice is announced twice.
  setTimeout(() => (region.textContent = text), 50);
}

/** An error or notice box: role=alert is announced when it gets text. Empty, it takes no space. */
export function showMessage(box: HTMLElement, text: string | null, focus = false): void {
  box.textContent = text ?? '';
  box.hidden = !text;
  if (text && focus) box.focus();
}

/** A plain button (type=button) with a class, a text and a click action. */
export const button = (className: string, text: string, onclick: () => unknown) =>
  h('button', { type: 'button', class: className, onclick }, text);
