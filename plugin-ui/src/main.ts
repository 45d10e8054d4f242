import '@cds/core/global.min.css';
import '@cds/core/styles/theme.dark.min.css';
import '@clr/ui/clr-ui.min.css';
import '@cds/core/icon/register.js';
import { ClarityIcons, infoStandardIcon, successStandardIcon, warningStandardIcon, errorStandardIcon, sunIcon, moonIcon, logoutIcon, storageIcon, windowCloseIcon } from '@cds/core/icon';
import './styles.css';

import { ApiClient, UnauthorizedError, apiBase, type ClusterView } from './api';
import { createHost, type Host } from './host';
import { h, clear } from './dom';
import { parseRoute, routeHref, type Route } from './route';
import { alert, button, errorBox, spinner } from './ui';
import type { Page, PageContext } from './pages/context';
import { overviewPage } from './pages/overview';
import { datastorePage } from './pages/datastore';
import { recommendationsPage } from './pages/recommendations';
import { historyPage, faultsPage } from './pages/history';
import { rulesPage } from './pages/rules';
import { plannerPage } from './pages/planner';
import { settingsPage } from './pages/settings';
import { sledsPage } from './pages/sleds';
import { summaryPage } from './pages/summary';
import { applyAllModal, maintenanceModal, runNowModal, settingsModal } from './pages/modals';

ClarityIcons.addIcons(infoStandardIcon, successStandardIcon, warningStandardIcon, errorStandardIcon, sunIcon, moonIcon, logoutIcon, storageIcon, windowCloseIcon);

const PAGES: Record<string, Page> = {
  overview: overviewPage,
  datastore: datastorePage,
  recommendations: recommendationsPage,
  history: historyPage,
  faults: faultsPage,
  rules: rulesPage,
  planner: plannerPage,
  sleds: sledsPage,
  settings: (ctx) => settingsPage(ctx),
  summary: summaryPage,
  'modal/run-now': runNowModal,
  'modal/apply': applyAllModal,
  'modal/maintenance': maintenanceModal,
  'modal/settings': settingsModal,
};

const NAV: Array<[string, string]> = [
  ['overview', 'Overview'],
  ['recommendations', 'Recommendations'],
  ['history', 'History'],
  ['faults', 'Faults'],
  ['rules', 'Rules & overrides'],
  ['planner', 'Capacity planner'],
  ['sleds', 'Service levels'],
  ['settings', 'Settings'],
];

/** Inside the vSphere Client the SDK script comes from the client (/api/ui/htmlClientSdk.js). */
function loadSdkScript(): Promise<void> {
  if (window.parent === window || window.htmlClientSdk) return Promise.resolve();
  return new Promise((resolve) => {
    const s = document.createElement('script');
    s.src = '/api/ui/htmlClientSdk.js';
    s.onload = () => resolve();
    s.onerror = () => resolve();
    document.head.appendChild(s);
  });
}

class App {
  private host!: Host;
  private api!: ApiClient;
  private clusters: ClusterView[] = [];
  private leave: Array<() => void> = [];
  private root = document.getElementById('app')!;
  private modalLayer = h('div', { id: 'modal-layer' });
  private renderSeq = 0;

  async start(): Promise<void> {
    await loadSdkScript();
    this.host = await createHost((route, title, onClosed) => this.openInPageModal(route, title, onClosed), (r) => this.closeInPageModal(r));
    document.body.dataset.mode = this.host.mode;
    this.api = new ApiClient({ baseUrl: apiBase(location.href), authHeaders: () => this.host.authHeaders() });
    document.body.append(this.modalLayer);
    window.addEventListener('hashchange', () => void this.render());
    this.host.onThemeChange(() => this.updateThemeButton());
    await this.render();
  }

  private async render(): Promise<void> {
    const seq = ++this.renderSeq;
    this.leave.splice(0).forEach((fn) => fn());
    const route = parseRoute(location.hash);
    if (this.host.mode === 'standalone' && !this.host.isLoggedIn()) {
      this.showLogin();
      return;
    }
    const main = h('main', { class: 'content-area', id: 'main', tabindex: '-1' }, spinner());
    const isModal = route.page.startsWith('modal/');
    const embedded = isModal || (this.host.mode === 'vsphere' && this.host.context() !== null);
    clear(this.root);
    this.root.append(h('div', { class: 'main-container' },
      this.host.mode === 'standalone' && !isModal ? this.header(route) : null,
      embedded ? null : this.nav(route),
      h('div', { class: 'content-container' }, main)));
    try {
      // read on every render: a cluster's settings (automation, Storage DRS on or off, the model in use) change
      // through the Settings page, the vSphere Client or the server itself, and the pages show them
      this.clusters = await this.api.clusters();
      const ctx = this.context(route, this.host);
      const page = PAGES[route.page];
      const el = page ? await page(ctx) : alert('warning', `No page "${route.page}".`);
      if (seq !== this.renderSeq) return;
      clear(main);
      main.append(el);
      main.dataset.loaded = 'true';
    } catch (e) {
      if (seq !== this.renderSeq) return;
      if (e instanceof UnauthorizedError && this.host.mode === 'standalone') {
        this.host.logout();
        this.showLogin('The server refused the user name or password.');
        return;
      }
      clear(main);
      main.append(errorBox('Loading', e));
      main.dataset.loaded = 'error';
    }
  }

  private context(route: Route, host: Host, closeModal?: (r?: unknown) => void): PageContext {
    const hc = host.context();
    const wanted = route.params.cluster ?? (hc?.type === 'StoragePod' ? hc.moid : undefined);
    const cluster = this.clusters.find((c) => c.id === wanted) ?? this.clusters[0] ?? null;
    const h2: Host = closeModal ? Object.assign(Object.create(Object.getPrototypeOf(host)), host, { closeModal }) : host;
    return {
      api: this.api,
      host: h2,
      route,
      cluster,
      clusters: this.clusters,
      refresh: () => void this.render(),
      navigate: (hash) => (location.hash = hash),
      onLeave: (fn) => this.leave.push(fn),
    };
  }

  private header(route: Route): HTMLElement {
    const current = route.params.cluster ?? this.clusters[0]?.id ?? '';
    const select = h('select', { id: 'cluster-select', class: 'clr-select' },
      this.clusters.length === 0 ? h('option', { value: '' }, 'no clusters') : null,
      this.clusters.map((c) => h('option', { value: c.id, selected: c.id === current }, c.name)));
    select.addEventListener('change', () => (location.hash = routeHref(route.page === 'datastore' ? 'overview' : route.page, { cluster: select.value })));
    const themeBtn = h('button', { type: 'button', class: 'btn btn-link theme-toggle', id: 'theme-toggle', 'data-testid': 'theme-toggle' });
    themeBtn.addEventListener('click', () => {
      this.host.toggleTheme();
      this.updateThemeButton();
    });
    const logout = button('Log out', () => {
      this.host.logout();
      this.clusters = [];
      void this.render();
    }, { kind: 'link', testId: 'logout' });
    const header = h('header', { class: 'header header-6' },
      h('div', { class: 'branding' },
        h('a', { href: routeHref('overview', { cluster: current || undefined }), class: 'nav-link' },
          h('cds-icon', { shape: 'storage', size: 'lg', 'aria-hidden': 'true' }),
          h('span', { class: 'title' }, 'OpenSDRS · Storage DRS'))),
      h('div', { class: 'header-actions' },
        h('div', { class: 'cluster-picker' }, h('label', { for: 'cluster-select' }, 'Datastore cluster'), h('div', { class: 'clr-select-wrapper' }, select)),
        themeBtn, logout));
    queueMicrotask(() => this.updateThemeButton());
    return header;
  }

  private updateThemeButton(): void {
    const b = document.getElementById('theme-toggle');
    if (!b) return;
    const dark = this.host.theme() === 'dark';
    clear(b);
    b.append(h('cds-icon', { shape: dark ? 'sun' : 'moon', 'aria-hidden': 'true' }), dark ? ' Light theme' : ' Dark theme');
    b.setAttribute('aria-label', dark ? 'Switch to light theme' : 'Switch to dark theme');
    b.setAttribute('aria-pressed', String(dark));
  }

  private nav(route: Route): HTMLElement {
    const cluster = route.params.cluster ?? this.clusters[0]?.id;
    return h('nav', { class: 'subnav', 'aria-label': 'OpenSDRS pages' },
      h('ul', { class: 'nav' }, NAV.map(([page, label]) => h('li', { class: 'nav-item' },
        h('a', { class: `nav-link${route.page === page ? ' active' : ''}`, href: routeHref(page, { cluster }), 'aria-current': route.page === page ? 'page' : undefined, 'data-testid': `nav-${page}` }, label)))));
  }

  private showLogin(message?: string): void {
    clear(this.root);
    const user = h('input', { id: 'login-user', class: 'clr-input', type: 'text', autocomplete: 'username', required: true, value: 'admin' });
    const pass = h('input', { id: 'login-password', class: 'clr-input', type: 'password', autocomplete: 'current-password', required: true });
    const form = h('form', { class: 'login', 'aria-label': 'Log in to the OpenSDRS server' },
      h('section', { class: 'title' }, h('h1', { class: 'welcome' }, 'OpenSDRS'), h('span', { class: 'hint' }, 'Storage DRS management server — log in with a server user')),
      h('div', { class: 'login-group' },
        h('div', { class: 'clr-form-control' }, h('label', { for: 'login-user', class: 'clr-control-label' }, 'User name'), user),
        h('div', { class: 'clr-form-control' }, h('label', { for: 'login-password', class: 'clr-control-label' }, 'Password'), pass),
        message ? h('div', { class: 'error active', role: 'alert', 'data-testid': 'login-error' }, message) : null,
        h('button', { type: 'submit', class: 'btn btn-primary', 'data-testid': 'login-submit' }, 'Log in')));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.host.login(user.value.trim(), pass.value);
      this.clusters = [];
      void this.render();
    });
    this.root.append(h('main', { class: 'login-wrapper', 'data-testid': 'login' }, form));
    (message ? pass : user.value ? pass : user).focus();
  }

  // ------------------------------------------------------------ standalone modals (vSphere: modal.open)
  private modalClosed: ((r?: unknown) => void) | undefined;

  private openInPageModal(route: string, title: string, onClosed?: (r?: unknown) => void): void {
    this.modalClosed = onClosed;
    const body = h('div', { class: 'modal-body' }, spinner());
    const close = h('button', { type: 'button', class: 'close', 'aria-label': 'Close', 'data-testid': 'modal-close' }, h('cds-icon', { shape: 'window-close', 'aria-hidden': 'true' }));
    close.addEventListener('click', () => this.closeInPageModal());
    clear(this.modalLayer);
    this.modalLayer.append(
      h('div', { class: 'modal', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'modal-title', 'data-testid': 'modal' },
        h('div', { class: 'modal-dialog', role: 'document' },
          h('div', { class: 'modal-content' },
            h('div', { class: 'modal-header' }, h('h2', { class: 'modal-title', id: 'modal-title' }, title), close),
            body))),
      h('div', { class: 'modal-backdrop', 'aria-hidden': 'true' }));
    const r = parseRoute(route);
    const page = PAGES[r.page];
    const ctx = this.context(r, this.host, (res) => this.closeInPageModal(res));
    (page ? page(ctx) : Promise.resolve(alert('warning', `No modal ${r.page}`)))
      .then((el) => {
        clear(body);
        body.append(el);
      })
      .catch((e) => {
        clear(body);
        body.append(errorBox(title, e));
      });
  }

  private closeInPageModal(result?: unknown): void {
    clear(this.modalLayer);
    const cb = this.modalClosed;
    this.modalClosed = undefined;
    cb?.(result);
  }
}

void new App().start();
