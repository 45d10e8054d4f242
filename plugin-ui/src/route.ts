/** Hash routes: "#/page/arg?key=value". */
export interface Route {
  page: string;
  arg?: string;
  params: Record<string, string>;
}

export function parseRoute(hash: string): Route {
  const raw = hash.replace(/^#\/?/, '');
  const [path, query = ''] = raw.split('?', 2);
  const parts = path.split('/').filter(Boolean).map((p) => safeDecode(p));
  const params: Record<string, string> = {};
  new URLSearchParams(query).forEach((v, k) => (params[k] = v));
  if (parts[0] === 'modal') return { page: `modal/${parts[1] ?? ''}`, arg: parts[2], params };
  return { page: parts[0] || 'overview', arg: parts[1], params };
}

export function routeHref(page: string, params: Record<string, string | undefined> = {}, arg?: string): string {
  const q = new URLSearchParams();
  Object.entries(params).forEach(([k, v]) => v !== undefined && v !== '' && q.set(k, v));
  const qs = q.toString();
  return `#/${page}${arg !== undefined ? `/${encodeURIComponent(arg)}` : ''}${qs ? `?${qs}` : ''}`;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
