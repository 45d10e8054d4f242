/** Clarity-styled building blocks (CSS of @clr/ui, icons of @cds/core). */
import { h, type Child } from './dom';
import { ApiError, NotAvailableError, UnauthorizedError } from './api';

export type AlertKind = 'info' | 'success' | 'warning' | 'danger';

export function alert(kind: AlertKind, text: Child, testId?: string): HTMLElement {
  const shape = { info: 'info-standard', success: 'success-standard', warning: 'warning-standard', danger: 'error-standard' }[kind];
  return h('div', { class: `alert alert-${kind}`, role: kind === 'danger' ? 'alert' : 'status', 'data-testid': testId },
    h('div', { class: 'alert-items' },
      h('div', { class: 'alert-item static' },
        h('div', { class: 'alert-icon-wrapper' }, h('cds-icon', { class: 'alert-icon', shape, 'aria-hidden': 'true' })),
        h('span', { class: 'alert-text' }, text))));
}

/** The state of a feature whose endpoint the server does not have (yet). */
export function notAvailable(what: string, err?: NotAvailableError): HTMLElement {
  return alert('info', [
    h('strong', null, `${what}: not available on this server.`),
    ' ',
    err ? h('span', { class: 'muted' }, `(the server has no ${err.path} endpoint yet)`) : null,
  ], 'not-available');
}

/** An error as an alert; not-available as an info alert; rethrows nothing. */
export function errorBox(what: string, e: unknown): HTMLElement {
  if (e instanceof NotAvailableError) return notAvailable(what, e);
  if (e instanceof UnauthorizedError) return alert('danger', `${what}: the server refused the credentials (401).`, 'error');
  if (e instanceof ApiError) return alert('danger', `${what}: ${e.status} — ${e.detail}`, 'error');
  return alert('danger', `${what}: ${e instanceof Error ? e.message : String(e)}`, 'error');
}

export function spinner(label = 'Loading'): HTMLElement {
  return h('span', { class: 'spinner spinner-inline', role: 'status', 'aria-label': label }, label);
}

export function badge(text: string, kind: 'info' | 'success' | 'warning' | 'danger' | 'neutral' = 'neutral', title?: string): HTMLElement {
  const cls = kind === 'neutral' ? 'label' : `label label-${kind}`;
  return h('span', { class: cls, title }, text);
}

export interface Column<T> {
  header: string;
  cell: (row: T) => Child;
  numeric?: boolean;
}

/** A Clarity table with a caption (its accessible name). */
export function table<T>(caption: string, columns: Column<T>[], rows: T[], empty = 'Nothing to show.', testId?: string): HTMLElement {
  if (rows.length === 0) {
    return h('div', { class: 'empty', 'data-testid': testId ? `${testId}-empty` : undefined }, h('p', null, `${caption}: ${empty}`));
  }
  return h('div', { class: 'table-wrap' },
    h('table', { class: 'table table-compact', 'data-testid': testId },
      h('caption', { class: 'table-caption' }, caption),
      h('thead', null, h('tr', null, columns.map((c) => h('th', { scope: 'col', class: c.numeric ? 'num' : 'left' }, c.header)))),
      h('tbody', null, rows.map((r) => h('tr', null, columns.map((c) => h('td', { class: c.numeric ? 'num' : 'left' }, c.cell(r))))))));
}

export function card(title: string, ...body: Child[]): HTMLElement {
  return h('section', { class: 'card', 'aria-label': title },
    h('div', { class: 'card-header' }, h('h2', { class: 'card-title' }, title)),
    h('div', { class: 'card-block' }, ...body));
}

export function button(label: string, onClick: (ev: MouseEvent) => void, opts: { kind?: 'primary' | 'outline' | 'danger' | 'link' | 'danger-outline'; small?: boolean; ariaLabel?: string; testId?: string; disabled?: boolean } = {}): HTMLButtonElement {
  const cls = ['btn', `btn-${opts.kind ?? 'outline'}`, opts.small ? 'btn-sm' : ''].filter(Boolean).join(' ');
  const b = h('button', { type: 'button', class: cls, 'aria-label': opts.ariaLabel, 'data-testid': opts.testId, disabled: opts.disabled ?? false }, label);
  b.addEventListener('click', (ev) => onClick(ev as MouseEvent));
  return b;
}

/** A meter bar (space used, IOPS against peak) with its value as text. */
export function meter(value: number | null, max: number, text: string, label: string, warnAt = 0.8, dangerAt = 0.9): HTMLElement {
  const frac = value === null || !(max > 0) ? 0 : Math.max(0, Math.min(1, value / max));
  const cls = frac >= dangerAt ? 'danger' : frac >= warnAt ? 'warning' : 'success';
  return h('div', { class: 'meter' },
    h('div', { class: `progress-block` },
      h('div', { class: `progress ${cls}` },
        h('progress', { value: Math.round(frac * 100), max: 100, 'aria-label': label }))),
    h('span', { class: 'meter-text' }, text));
}

export function pageHeader(title: string, subtitle?: Child, ...actions: Child[]): HTMLElement {
  return h('div', { class: 'page-header' },
    h('div', null, h('h1', { class: 'page-title' }, title), subtitle ? h('p', { class: 'page-subtitle' }, subtitle) : null),
    h('div', { class: 'page-actions' }, ...actions));
}

export function dl(items: Array<[string, Child]>): HTMLElement {
  return h('dl', { class: 'kv' }, items.map(([k, v]) => [h('dt', null, k), h('dd', null, v)]));
}
