/**
 * The OpenSDRS server's REST API as the plugin calls it. Every shape and path comes from the server's
 * OpenAPI document (`openapi.json`, checked against the server by its OpenApiDocumentTest), turned
 * into types at build time by openapi-typescript (`src/generated/openapi.ts`) and called through
 * openapi-fetch, so a server change the plugin does not follow is a type error. Endpoints a server
 * does not have (an older one) answer 404 or are missing from its live document; the client turns
 * that into {@link NotAvailableError} so pages show "not available on this server".
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './generated/openapi';

type Schemas = components['schemas'];

// ---------------------------------------------------------------- the server's shapes, by the names pages use

export type RunView = Schemas['RunView'];
export type MaintenanceView = Schemas['MaintenanceView'];
export type LeftView = Schemas['LeftView'];
export type MaintenanceStatusView = Schemas['MaintenanceStatusView'];
export type SettingsView = Schemas['SettingsView'];
export type SettingsRequest = Schemas['SettingsRequest'];
export type ServiceClassEntry = Schemas['ServiceClassEntry'];
export type VmOverrideEntry = Schemas['VmOverrideEntry'];
export type SledsView = Schemas['SledsView'];
export type SledsStreamView = Schemas['StreamView'];
export type ClusterView = Schemas['ClusterView'];
export type SpaceView = Schemas['SpaceView'];
export type ModelSummary = Schemas['ModelSummary'];
export type DatastoreView = Schemas['DatastoreView'];
export type PercentilesView = Schemas['PercentilesView'];
export type DatastoreDetail = Schemas['DatastoreDetail'];
export type FitPoint = Schemas['FitPoint'];
export type ModelRecord = Schemas['ModelRecord'];
export type ModelView = Schemas['ModelView'];
export type ModelSelection = Schemas['ModelSelectionView'];
export type DiskView = Schemas['DiskView'];
export type RecommendationView = Schemas['RecommendationView'];
export type RecommendationDetail = Schemas['RecommendationDetail'];
export type ExplanationView = Schemas['ExplanationView'];
export type DatastoreForecastView = Schemas['DatastoreForecastView'];
export type ActionView = Schemas['ActionView'];
export type MigrationsView = Schemas['MigrationsView'];
export type HistoryView = Schemas['HistoryView'];
export type FaultView = Schemas['FaultView'];
export type StatisticsView = Schemas['StatisticsView'];
export type StatisticsFaultView = Schemas['StatisticsFaultView'];
export type RuleView = Schemas['RuleView'];
export type RuleRequest = Schemas['RuleRequest'];
export type VmOverrideView = Schemas['VmOverrideView'];
export type CapacityPlanRequest = Schemas['CapacityPlanRequest'];
export type CapacityPlanView = Schemas['CapacityPlanView'];
export type DatastoreCapacityView = Schemas['DatastoreCapacityView'];

// ---------------------------------------------------------------- settings helpers

/**
 * The settings' vmOverrides with the VM's automation set to {@code behavior}, its service class
 * kept; an entry left with neither is dropped (the VM follows the cluster).
 */
export function withVmAutomation(overrides: VmOverrideEntry[], vmId: string, behavior: string): VmOverrideEntry[] {
  const out = overrides.filter((o) => o.vmId !== vmId);
  const serviceClass = overrides.find((o) => o.vmId === vmId)?.serviceClass ?? undefined;
  if (behavior !== 'default' || serviceClass != null) out.push({ vmId, behavior, serviceClass });
  return out;
}

/**
 * The settings' vmOverrides with the VM in service class {@code classId} (null: in none), its
 * automation kept; an entry left with neither is dropped.
 */
export function withVmServiceClass(overrides: VmOverrideEntry[], vmId: string, classId: string | null): VmOverrideEntry[] {
  const out = overrides.filter((o) => o.vmId !== vmId);
  const behavior = overrides.find((o) => o.vmId === vmId)?.behavior ?? 'default';
  if (behavior !== 'default' || classId != null) out.push({ vmId, behavior, serviceClass: classId ?? undefined });
  return out;
}

/** The service classes with {@code entry} added, or replacing the class of the same id in place. */
export function withServiceClass(classes: ServiceClassEntry[], entry: ServiceClassEntry): ServiceClassEntry[] {
  return classes.some((c) => c.id === entry.id) ? classes.map((c) => (c.id === entry.id ? entry : c)) : [...classes, entry];
}

/** The settings' classes and VM overrides without class {@code classId}: its VMs are left in no class. */
export function withoutServiceClass(settings: SettingsView, classId: string): Pick<SettingsView, 'serviceClasses' | 'vmOverrides'> {
  let overrides = settings.vmOverrides ?? [];
  for (const o of overrides.filter((x) => x.serviceClass === classId)) overrides = withVmServiceClass(overrides, o.vmId, null);
  return { serviceClasses: (settings.serviceClasses ?? []).filter((c) => c.id !== classId), vmOverrides: overrides };
}

/**
 * A controller action as an administrator reads it: each stream ("host/vm-id/disk-key") by its VM's
 * name and disk, each datastore by its name ("tighten db disk 2000 to 400 IOPS (…; competes with web
 * disk 2001 on ds-a)"). Ids the streams do not explain are left as they are.
 */
export function readableAction(action: string, streams: SledsStreamView[]): string {
  const names = new Map<string, string>();
  for (const s of streams) {
    names.set(`${s.host}/${s.vmId}/${s.diskKey}`, `${s.vmName || s.vmId} disk ${s.diskKey}`);
    names.set(s.datastoreId, s.datastoreName || s.datastoreId);
  }
  if (names.size === 0) return action;
  // longest first, and whole tokens only: datastore-1 must not rewrite the start of datastore-11
  const ids = [...names.keys()].sort((a, b) => b.length - a.length).map(escapeRe);
  return action.replace(new RegExp(`(?<![\\w/-])(${ids.join('|')})(?![\\w/-])`, 'g'), (id) => names.get(id) ?? id);
}

// ---------------------------------------------------------------- errors

/** A non-2xx answer; {@link detail} is the problem detail's text and {@link field} the field it names. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly path: string,
    readonly detail: string,
    readonly field?: string,
  ) {
    super(`${status} ${path}: ${detail}`);
    this.name = 'ApiError';
  }
}

/** The server answered 404 for an endpoint this plugin uses: the server does not have it (yet). */
export class NotAvailableError extends ApiError {
  constructor(path: string) {
    super(404, path, 'not available on this server');
    this.name = 'NotAvailableError';
  }
}

/** 401: the credentials are missing or wrong. */
export class UnauthorizedError extends ApiError {
  constructor(path: string) {
    super(401, path, 'authentication required');
    this.name = 'UnauthorizedError';
  }
}

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface ApiClientOptions {
  /** Base URL of the server; '' = same origin. */
  baseUrl?: string;
  fetch?: FetchLike;
  /** Headers to add to every request (Authorization). */
  authHeaders?: () => Record<string, string>;
}

export function basicAuth(user: string, password: string): string {
  const bytes = new TextEncoder().encode(`${user}:${password}`);
  let bin = '';
  bytes.forEach((b) => (bin += String.fromCharCode(b)));
  return `Basic ${btoa(bin)}`;
}

/** What openapi-fetch answers for one call. */
type Answer<T> = { data?: T; error?: unknown; response: Response };

export class ApiClient {
  private readonly baseUrl: string;
  private readonly fetchFn: FetchLike;
  private readonly authHeaders: () => Record<string, string>;
  private readonly http;
  private capabilitiesPromise: Promise<Capabilities> | null = null;

  constructor(opts: ApiClientOptions = {}) {
    this.baseUrl = (opts.baseUrl ?? '').replace(/\/$/, '');
    this.fetchFn = opts.fetch ?? ((i, init) => fetch(i, init));
    this.authHeaders = opts.authHeaders ?? (() => ({}));
    this.http = createClient<paths>({ baseUrl: this.baseUrl, fetch: (req) => this.transport(req) });
  }

  // ------------------------------------------------------------ clusters (ClustersController)
  clusters(): Promise<ClusterView[]> {
    return this.call('GET', '/api/v1/clusters', {}, () => this.http.GET('/api/v1/clusters'));
  }
  cluster(clusterId: string): Promise<ClusterView> {
    const p = { clusterId };
    return this.call('GET', '/api/v1/clusters/{clusterId}', p, () => this.http.GET('/api/v1/clusters/{clusterId}', { params: { path: p } }));
  }
  settings(clusterId: string): Promise<SettingsView> {
    const p = { clusterId };
    return this.call('GET', '/api/v1/clusters/{clusterId}/settings', p,
      () => this.http.GET('/api/v1/clusters/{clusterId}/settings', { params: { path: p } }));
  }
  putSettings(clusterId: string, s: SettingsRequest): Promise<SettingsView> {
    const p = { clusterId };
    return this.call('PUT', '/api/v1/clusters/{clusterId}/settings', p,
      () => this.http.PUT('/api/v1/clusters/{clusterId}/settings', { params: { path: p }, body: s }));
  }
  modelSelection(clusterId: string): Promise<ModelSelection> {
    const p = { clusterId };
    return this.call('GET', '/api/v1/clusters/{clusterId}/model-selection', p,
      () => this.http.GET('/api/v1/clusters/{clusterId}/model-selection', { params: { path: p } }));
  }
  recommendations(clusterId: string, limit = 100): Promise<RecommendationView[]> {
    const p = { clusterId };
    return this.call('GET', '/api/v1/clusters/{clusterId}/recommendations', p,
      () => this.http.GET('/api/v1/clusters/{clusterId}/recommendations', { params: { path: p, query: { limit } } }));
  }
  history(clusterId: string, limit = 100): Promise<HistoryView[]> {
    const p = { clusterId };
    return this.call('GET', '/api/v1/clusters/{clusterId}/history', p,
      () => this.http.GET('/api/v1/clusters/{clusterId}/history', { params: { path: p, query: { limit } } }));
  }
  faults(clusterId: string, limit = 100): Promise<FaultView[]> {
    const p = { clusterId };
    return this.call('GET', '/api/v1/clusters/{clusterId}/faults', p,
      () => this.http.GET('/api/v1/clusters/{clusterId}/faults', { params: { path: p, query: { limit } } }));
  }
  statistics(clusterId: string): Promise<StatisticsView> {
    const p = { clusterId };
    return this.call('GET', '/api/v1/clusters/{clusterId}/statistics', p,
      () => this.http.GET('/api/v1/clusters/{clusterId}/statistics', { params: { path: p } }));
  }

  // ------------------------------------------------------------ datastores (DatastoresController)
  datastores(cluster?: string): Promise<DatastoreView[]> {
    return this.call('GET', '/api/v1/datastores', {}, () => this.http.GET('/api/v1/datastores', { params: { query: cluster ? { cluster } : {} } }));
  }
  datastore(name: string): Promise<DatastoreDetail> {
    const p = { name };
    return this.call('GET', '/api/v1/datastores/{name}', p, () => this.http.GET('/api/v1/datastores/{name}', { params: { path: p } }));
  }
  model(name: string, kind?: string): Promise<ModelView> {
    const p = { name };
    return this.call('GET', '/api/v1/datastores/{name}/model', p,
      () => this.http.GET('/api/v1/datastores/{name}/model', { params: { path: p, query: kind ? { kind } : {} } }));
  }
  percentiles(name: string, window?: string): Promise<PercentilesView> {
    const p = { name };
    return this.call('GET', '/api/v1/datastores/{name}/percentiles', p,
      () => this.http.GET('/api/v1/datastores/{name}/percentiles', { params: { path: p, query: window ? { window } : {} } }));
  }

  // ------------------------------------------------------------ disks (DisksController)
  disks(datastore?: string, limit = 1000): Promise<DiskView[]> {
    return this.call('GET', '/api/v1/disks', {},
      () => this.http.GET('/api/v1/disks', { params: { query: datastore ? { limit, datastore } : { limit } } }));
  }

  // ------------------------------------------------------------ recommendations (MigrationController)
  recommendation(id: number): Promise<RecommendationDetail> {
    const p = { id };
    return this.call('GET', '/api/v1/recommendations/{id}', p, () => this.http.GET('/api/v1/recommendations/{id}', { params: { path: p } }), true);
  }
  /**
   * Why the balancing engine made the recommendation: its summary, each affected datastore's forecast and model
   * (BalancingController.explanation). A recommendation the engine did not make has none: NotAvailableError.
   */
  explanation(id: number): Promise<ExplanationView> {
    const p = { id };
    return this.call('GET', '/api/v1/recommendations/{id}/explanation', p,
      () => this.http.GET('/api/v1/recommendations/{id}/explanation', { params: { path: p } }), true);
  }
  /** Queues the recommendation's storage vMotions (409 unless PENDING, or without vCenter). */
  applyRecommendation(id: number): Promise<RecommendationDetail> {
    const p = { id };
    return this.call('POST', '/api/v1/recommendations/{id}/apply', p,
      () => this.http.POST('/api/v1/recommendations/{id}/apply', { params: { path: p } }), true);
  }
  dismissRecommendation(id: number): Promise<RecommendationDetail> {
    const p = { id };
    return this.call('POST', '/api/v1/recommendations/{id}/dismiss', p,
      () => this.http.POST('/api/v1/recommendations/{id}/dismiss', { params: { path: p } }), true);
  }
  cancelRecommendation(id: number): Promise<RecommendationDetail> {
    const p = { id };
    return this.call('POST', '/api/v1/recommendations/{id}/cancel', p,
      () => this.http.POST('/api/v1/recommendations/{id}/cancel', { params: { path: p } }), true);
  }
  migrations(): Promise<MigrationsView> {
    return this.call('GET', '/api/v1/migrations', {}, () => this.http.GET('/api/v1/migrations'), true);
  }

  // ------------------------------------------------------------ balancing (BalancingController, CapacityPlanController)
  /** "Run Storage DRS now" (POST /clusters/{id}/run). */
  runNow(clusterId: string): Promise<RunView> {
    const p = { clusterId };
    return this.call('POST', '/api/v1/clusters/{clusterId}/run', p,
      () => this.http.POST('/api/v1/clusters/{clusterId}/run', { params: { path: p } }), true);
  }
  /** The datastore's maintenance mode and each disk and VM home still on it, with where it stands in the evacuation. */
  maintenanceStatus(name: string): Promise<MaintenanceStatusView> {
    const p = { name };
    return this.call('GET', '/api/v1/datastores/{name}/maintenance', p,
      () => this.http.GET('/api/v1/datastores/{name}/maintenance', { params: { path: p } }), true);
  }
  /** Enter or exit maintenance mode; entering returns the evacuation's recommendations and faults. */
  maintenance(name: string, enter: boolean, ignoreAffinity = false): Promise<MaintenanceView> {
    const p = { name };
    return this.call('POST', '/api/v1/datastores/{name}/maintenance', p,
      () => this.http.POST('/api/v1/datastores/{name}/maintenance', { params: { path: p }, body: { enter, ignoreAffinity } }), true);
  }
  /** The capacity planner's what-if: how many of `count` workloads fit, per datastore (Pesto Eqs. 12, 13 and space). */
  capacityPlan(clusterId: string, req: CapacityPlanRequest): Promise<CapacityPlanView> {
    const p = { clusterId };
    return this.call('POST', '/api/v1/clusters/{clusterId}/capacity-plan', p,
      () => this.http.POST('/api/v1/clusters/{clusterId}/capacity-plan', { params: { path: p }, body: req }), true);
  }

  /** The cluster's Storage DRS rules as vCenter holds them (ClustersController.rules). */
  rules(clusterId: string): Promise<RuleView[]> {
    const p = { clusterId };
    return this.call('GET', '/api/v1/clusters/{clusterId}/rules', p,
      () => this.http.GET('/api/v1/clusters/{clusterId}/rules', { params: { path: p } }), true);
  }
  /** Creates a VM or VMDK anti-affinity rule in vCenter; answered with the rule as read back (ClustersController.createRule). */
  createRule(clusterId: string, r: RuleRequest): Promise<RuleView> {
    const p = { clusterId };
    return this.call('POST', '/api/v1/clusters/{clusterId}/rules', p,
      () => this.http.POST('/api/v1/clusters/{clusterId}/rules', { params: { path: p }, body: r }), true);
  }
  /** Removes a VM anti-affinity rule or a VM's VMDK anti-affinity rule from vCenter (ClustersController.deleteRule). */
  deleteRule(clusterId: string, ruleId: string): Promise<void> {
    const p = { clusterId, ruleId };
    return this.call('DELETE', '/api/v1/clusters/{clusterId}/rules/{ruleId}', p,
      () => this.http.DELETE('/api/v1/clusters/{clusterId}/rules/{ruleId}', { params: { path: p } }), true);
  }
  /** The SLEDS controller's last step on the cluster: classes against their SLO, streams and their limits (ClustersController.sleds). */
  sleds(clusterId: string): Promise<SledsView> {
    const p = { clusterId };
    return this.call('GET', '/api/v1/clusters/{clusterId}/sleds', p,
      () => this.http.GET('/api/v1/clusters/{clusterId}/sleds', { params: { path: p } }), true);
  }
  /** Per-VM automation, service class and keep-together (ClustersController.vmOverrides). */
  vmOverrides(clusterId: string): Promise<VmOverrideView[]> {
    const p = { clusterId };
    return this.call('GET', '/api/v1/clusters/{clusterId}/vm-overrides', p,
      () => this.http.GET('/api/v1/clusters/{clusterId}/vm-overrides', { params: { path: p } }), true);
  }

  // ------------------------------------------------------------ capabilities
  /**
   * The operations the server has, from its live OpenAPI document (springdoc, /v3/api-docs), read
   * once: a server older than this plugin may lack some. Optional endpoints missing from it are
   * reported as not available without a request; when the document itself is unavailable every
   * endpoint is tried (404 → not available).
   */
  capabilities(): Promise<Capabilities> {
    if (!this.capabilitiesPromise) {
      // the document is not among its own paths: untyped, but sent as every call is (auth, XHR header)
      this.capabilitiesPromise = this.http.GET('/v3/api-docs' as never)
        .then(({ data, response }) => {
          if (response.status === 401) throw new UnauthorizedError('/v3/api-docs');
          return response.ok ? Capabilities.fromOpenApi(data as unknown as OpenApiDoc) : Capabilities.unknown();
        })
        .catch((e) => {
          if (e instanceof UnauthorizedError) {
            this.capabilitiesPromise = null;
            throw e;
          }
          return Capabilities.unknown();
        });
    }
    return this.capabilitiesPromise;
  }

  /** Whether the server has METHOD path (path with concrete values); true when unknown. */
  async has(method: string, path: string): Promise<boolean> {
    return (await this.capabilities()).has(method, path);
  }

  // ------------------------------------------------------------ transport
  /**
   * One typed call: `template` and `params` name the operation for the capability check and for errors;
   * `send` is the openapi-fetch call, whose path, parameters, body and answer the generated types check.
   */
  private async call<T>(method: string, template: string, params: Record<string, string | number>,
    send: () => Promise<Answer<T>>, optional = false): Promise<T> {
    const path = template.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(String(params[k])));
    if (optional && !(await this.has(method, path))) throw new NotAvailableError(`${method} ${path}`);
    const { data, error, response } = await send();
    if (response.ok) return data as T;
    if (response.status === 401) throw new UnauthorizedError(path);
    const problem = problemOf(error, response);
    if (response.status === 404 && (optional || isMissingEndpoint(problem.detail))) throw new NotAvailableError(path);
    throw new ApiError(response.status, path, problem.detail, problem.field);
  }

  /** The request as this client sends it: the XHR header, the host's authentication, JSON. */
  private async transport(req: Request): Promise<Response> {
    const body = req.method === 'GET' || req.method === 'HEAD' ? '' : await req.text();
    const headers: Record<string, string> = {
      Accept: 'application/json',
      // Spring Security answers 401 without `WWW-Authenticate: Basic` for XHR-style requests,
      // so a wrong password never opens the browser's own login dialog.
      'X-Requested-With': 'XMLHttpRequest',
      ...this.authHeaders(),
    };
    if (body) headers['Content-Type'] = 'application/json';
    return this.fetchFn(req.url, { method: req.method, headers, body: body || undefined, credentials: 'same-origin' });
  }
}

/** Spring's answer for a path no controller maps (as opposed to a controller's "no datastore X"). */
export function isMissingEndpoint(detail: string): boolean {
  return /^No (static resource|endpoint|handler)/i.test(detail) || detail === '';
}

function problemOf(error: unknown, res: Response): { detail: string; field?: string } {
  if (error && typeof error === 'object') {
    const p = error as { detail?: string; title?: string; field?: string; message?: string; errors?: Array<{ field: string; message: string }> };
    const errors = p.errors?.map((e) => `${e.field}: ${e.message}`).join('; ');
    return { detail: errors || p.detail || p.message || p.title || res.statusText || '', field: p.field ?? p.errors?.[0]?.field };
  }
  return { detail: (typeof error === 'string' ? error.slice(0, 300) : '') || res.statusText || '' };
}

// ---------------------------------------------------------------- capabilities

interface OpenApiDoc {
  paths?: Record<string, Record<string, unknown>>;
}

/** The server's operations as METHOD + path templates ("/api/v1/clusters/{clusterId}/faults"). */
export class Capabilities {
  private constructor(private readonly ops: Array<{ method: string; re: RegExp }> | null) {}

  static fromOpenApi(doc: OpenApiDoc): Capabilities {
    const ops: Array<{ method: string; re: RegExp }> = [];
    for (const [template, item] of Object.entries(doc?.paths ?? {})) {
      const re = new RegExp('^' + template.split(/\{[^}]+\}/).map(escapeRe).join('[^/]+') + '$');
      for (const m of Object.keys(item ?? {})) {
        if (/^(get|put|post|delete|patch)$/i.test(m)) ops.push({ method: m.toUpperCase(), re });
      }
    }
    return new Capabilities(ops);
  }

  /** Nothing known: every endpoint is assumed present. */
  static unknown(): Capabilities {
    return new Capabilities(null);
  }

  get known(): boolean {
    return this.ops !== null;
  }

  has(method: string, path: string): boolean {
    if (this.ops === null) return true;
    const p = path.split('?')[0];
    const m = method.toUpperCase();
    return this.ops.some((o) => o.method === m && o.re.test(p));
  }
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Where the API is, seen from the page: the plugin is served under `<server>/ui/`, and inside
 * the vSphere Client through its reverse proxy under some prefix, so the API is the parent of
 * the page's directory when that directory is `ui/`, else the page's origin root.
 */
export function apiBase(pageUrl: string): string {
  const u = new URL(pageUrl);
  const dir = u.pathname.replace(/[^/]*$/, '');
  const base = /\/ui\/$/.test(dir) ? dir.replace(/ui\/$/, '') : '/';
  return `${u.origin}${base}`.replace(/\/$/, '');
}
