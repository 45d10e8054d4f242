/**
 * Light/dark theme. Clarity (@cds/core and @clr/ui) switches every token on the `cds-theme`
 * attribute ("light" | "dark"). Inside the vSphere Client the theme is the client's
 * (htmlClientSdk app.getTheme()); standalone it is the user's choice, remembered in
 * localStorage, defaulting to the system preference.
 */
export type Theme = 'light' | 'dark';

export const THEME_KEY = 'opensdrs.theme';

export function normalizeTheme(v: unknown): Theme | null {
  if (typeof v !== 'string') return null;
  const s = v.toLowerCase();
  // the vSphere Client names its themes "light" and "dark" (older builds: "default")
  if (s === 'dark') return 'dark';
  if (s === 'light' || s === 'default') return 'light';
  return null;
}

export interface ThemeSources {
  /** the host's theme name (vSphere Client), if any */
  host?: string | null;
  /** the stored choice */
  stored?: string | null;
  /** prefers-color-scheme: dark */
  prefersDark?: boolean;
}

/** The host's theme wins, then the stored choice, then the system preference, then light. */
export function resolveTheme(src: ThemeSources): Theme {
  return normalizeTheme(src.host) ?? normalizeTheme(src.stored) ?? (src.prefersDark ? 'dark' : 'light');
}

export function otherTheme(t: Theme): Theme {
  return t === 'dark' ? 'light' : 'dark';
}

/** Sets `cds-theme` on <html> and <body> (Clarity's tokens hang on either) and color-scheme. */
export function applyTheme(t: Theme, doc: Document = document): void {
  doc.documentElement.setAttribute('cds-theme', t);
  doc.body?.setAttribute('cds-theme', t);
  doc.documentElement.style.colorScheme = t;
}

export function currentTheme(doc: Document = document): Theme {
  return normalizeTheme(doc.body?.getAttribute('cds-theme') ?? doc.documentElement.getAttribute('cds-theme')) ?? 'light';
}

export function storedTheme(storage: Pick<Storage, 'getItem'> | undefined = safeStorage()): string | null {
  try {
    return storage?.getItem(THEME_KEY) ?? null;
  } catch {
    return null;
  }
}

export function storeTheme(t: Theme, storage: Pick<Storage, 'setItem'> | undefined = safeStorage()): void {
  try {
    storage?.setItem(THEME_KEY, t);
  } catch {
    /* storage refused (privacy mode): the choice lasts for this page only */
  }
}

function safeStorage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}
