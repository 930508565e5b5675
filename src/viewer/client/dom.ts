/** A tiny element builder: h('td', { class: 'num' }, 'text', child). Strings become text nodes (never HTML). */
export type Child = Node | string | number | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string | number | boolean | EventListener | undefined> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.replace(/^on/, ''), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) if (child !== null && child !== undefined && child !== false) element.append(typeof child === 'number' ? String(child) : child);
  return element;
}

/** A number for a table: rates in %, missing values as a dash. */
export function pct(value: unknown): string {
  return typeof value === 'number' ? `${(100 * value).toFixed(1)}%` : '–';
}

export function num(value: unknown, digits = 0): string {
  if (value === null || value === undefined || value === '') return '–';
  const n = Number(value);
  return Number.isFinite(n) ? n.toFixed(digits) : String(value);
}

/** USD, or `unknown` when a price was not known (never shown as 0). */
export function usd(value: unknown): string {
  return typeof value === 'number' ? `$${value.toFixed(4)}` : 'unknown';
}

export function basename(file: string): string {
  return file.split(/[\\/]/).pop() ?? file;
}
