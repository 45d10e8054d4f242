/**
 * Where the plugin runs. Inside the vSphere Client (an iframe of the client, with the client
 * SDK loaded from /api/ui/htmlClientSdk.js) it follows the SDK: initialize(), the context
 * objects of the view (which StoragePod or Datastore), modal.open, the client's theme and its
 * session. Opened directly in a browser (the demo) it is standalone: its own login form
 * (HTTP Basic against the server's users), its own theme toggle and in-page modals. Pages only
 * talk to this module.
 */
import { applyTheme, otherTheme, resolveTheme, storeTheme, storedTheme, currentTheme, type Theme } from './theme';
import { basicAuth } from './api';

// ---------------------------------------------------------------- the subset of the SDK used

interface SdkContextObject {
  id: string;
  name?: string;
  type?: string;
}
interface SdkModalConfig {
  url: string;
  title?: string;
  size?: { width: number; height: number };
  closable?: boolean;
  onClosed?: (result?: unknown) => void;
  customData?: unknown;
}
export interface HtmlClientSdk {
  initialize(cb: () => void): void;
  isInitialized?(): boolean;
  app: {
    getContextObjects(): SdkContextObject[];
    getTheme?(): { name: string } | undefined;
    getSessionInfo?(cb: (info: { sessionToken: string }) => void): void;
    navigateTo?(opts: { targetViewId?: string; objectId?: string; customData?: unknown }): void;
    getClientLocale?(): string;
  };
  modal: {
    open(cfg: SdkModalConfig): void;
    close(data?: unknown): void;
    getCustomData?(): unknown;
    setTitle?(title: string): void;
  };
  event?: {
    onThemeChanged?(cb: (theme: { name: string }) => void): void;
  };
}

declare global {
  interface Window {
    htmlClientSdk?: HtmlClientSdk;
  }
}

// ---------------------------------------------------------------- context

export type ObjectType = 'StoragePod' | 'Datastore';

export interface ViewContext {
  type: ObjectType;
  /** managed object id: group-p12, datastore-34 */
  moid: string;
  name?: string;
}

/**
 * Parses the SDK's object ids, "urn:vmomi:StoragePod:group-p12:6d5f…" (type, moid, server guid),
 * into a context; anything else is null.
 */
export function parseObjectId(id: string | undefined | null, name?: string): ViewContext | null {
  if (!id) return null;
  const m = /^urn:vmomi:(StoragePod|Datastore):([^:]+)(?::.*)?$/.exec(id);
  return m ? { type: m[1] as ObjectType, moid: m[2], name } : null;
}

export interface Host {
  readonly mode: 'vsphere' | 'standalone';
  /** The StoragePod/Datastore the view is for (vSphere object views), null for the global view. */
  context(): ViewContext | null;
  theme(): Theme;
  /** Standalone only: flips the theme; inside vSphere the client decides. */
  toggleTheme(): Theme;
  canToggleTheme(): boolean;
  onThemeChange(cb: (t: Theme) => void): void;
  /** Opens a modal showing `route` (a hash route of this app); `onClosed` after it closes. */
  openModal(route: string, title: string, onClosed?: (result?: unknown) => void, size?: { width: number; height: number }): void;
  /** Closes the modal this page is shown in (when it is one). */
  closeModal(result?: unknown): void;
  /** Authorization headers for the server. */
  authHeaders(): Record<string, string>;
  /** Standalone: whether credentials are known. */
  isLoggedIn(): boolean;
  login(user: string, password: string): void;
  logout(): void;
}

const CRED_KEY = 'opensdrs.auth';

/** Standalone: the app's own theme toggle, login and in-page modal dialog. */
export class StandaloneHost implements Host {
  readonly mode = 'standalone' as const;
  private listeners: Array<(t: Theme) => void> = [];
  private auth: string | null;

  constructor(private readonly modalOpener: (route: string, title: string, onClosed?: (r?: unknown) => void) => void,
              private readonly modalCloser: (r?: unknown) => void) {
    applyTheme(resolveTheme({ stored: storedTheme(), prefersDark: prefersDark() }));
    this.auth = readSession(CRED_KEY);
  }

  context(): ViewContext | null {
    return null;
  }
  theme(): Theme {
    return currentTheme();
  }
  canToggleTheme(): boolean {
    return true;
  }
  toggleTheme(): Theme {
    const t = otherTheme(currentTheme());
    applyTheme(t);
    storeTheme(t);
    this.listeners.forEach((l) => l(t));
    return t;
  }
  onThemeChange(cb: (t: Theme) => void): void {
    this.listeners.push(cb);
  }
  openModal(route: string, title: string, onClosed?: (result?: unknown) => void): void {
    this.modalOpener(route, title, onClosed);
  }
  closeModal(result?: unknown): void {
    this.modalCloser(result);
  }
  authHeaders(): Record<string, string> {
    return this.auth ? { Authorization: this.auth } : {};
  }
  isLoggedIn(): boolean {
    return this.auth !== null;
  }
  login(user: string, password: string): void {
    this.auth = basicAuth(user, password);
    writeSession(CRED_KEY, this.auth);
  }
  logout(): void {
    this.auth = null;
    writeSession(CRED_KEY, null);
  }
}

/** Inside the vSphere Client. */
export class VSphereHost implements Host {
  readonly mode = 'vsphere' as const;
  private listeners: Array<(t: Theme) => void> = [];
  private session: string | null = null;

  constructor(private readonly sdk: HtmlClientSdk) {
    applyTheme(resolveTheme({ host: sdk.app.getTheme?.()?.name }));
    sdk.event?.onThemeChanged?.((th) => {
      const t = resolveTheme({ host: th?.name });
      applyTheme(t);
      this.listeners.forEach((l) => l(t));
    });
    sdk.app.getSessionInfo?.((info) => (this.session = info?.sessionToken ?? null));
  }

  context(): ViewContext | null {
    const objs = this.sdk.app.getContextObjects() ?? [];
    for (const o of objs) {
      const c = parseObjectId(o.id, o.name);
      if (c) return c;
    }
    return null;
  }
  theme(): Theme {
    return currentTheme();
  }
  canToggleTheme(): boolean {
    return false;
  }
  toggleTheme(): Theme {
    return currentTheme();
  }
  onThemeChange(cb: (t: Theme) => void): void {
    this.listeners.push(cb);
  }
  openModal(route: string, title: string, onClosed?: (result?: unknown) => void, size = { width: 640, height: 420 }): void {
    const base = location.href.split('#')[0];
    this.sdk.modal.open({ url: `${base}#${route}`, title, size, onClosed });
  }
  closeModal(result?: unknown): void {
    this.sdk.modal.close(result);
  }
  authHeaders(): Record<string, string> {
    // The server checks the client's session against vCenter (SPEC §5).
    return this.session ? { 'vmware-api-session-id': this.session } : {};
  }
  isLoggedIn(): boolean {
    return true;
  }
  login(): void {}
  logout(): void {}
}

/** Inside an iframe with the SDK script present → vSphere; otherwise standalone. */
export function detectSdk(w: Window = window): HtmlClientSdk | null {
  let framed = false;
  try {
    framed = w.parent !== w;
  } catch {
    framed = true;
  }
  return framed && w.htmlClientSdk ? w.htmlClientSdk : null;
}

/** Creates the host; inside vSphere waits for the SDK's initialize callback. */
export function createHost(
  modalOpener: (route: string, title: string, onClosed?: (r?: unknown) => void) => void,
  modalCloser: (r?: unknown) => void,
): Promise<Host> {
  const sdk = detectSdk();
  if (!sdk) return Promise.resolve(new StandaloneHost(modalOpener, modalCloser));
  return new Promise((resolve) => sdk.initialize(() => resolve(new VSphereHost(sdk))));
}

function prefersDark(): boolean {
  try {
    return window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
  } catch {
    return false;
  }
}

// Credentials live for the browser tab only (sessionStorage), never in localStorage.
function readSession(k: string): string | null {
  try {
    return sessionStorage.getItem(k);
  } catch {
    return null;
  }
}
function writeSession(k: string, v: string | null): void {
  try {
    if (v === null) sessionStorage.removeItem(k);
    else sessionStorage.setItem(k, v);
  } catch {
    /* storage refused: credentials kept in memory only */
  }
}
