/**
 * Typed client of the OpenSDRS server's REST API (server/src/main/java/io/opensdrs/server/api).
 * Paths match the server's controllers. Endpoints the server does not have yet (the balancing
 * engine's apply/dismiss/run-now, maintenance mode, planner, per-VM override writes) answer 404; the
 * client turns that into {@link NotAvailableError} so pages show "not available on this server"
 * instead of inventing data.
 */

// ---------------------------------------------------------------- response shapes (ApiViews.java)

/** What a Storage DRS run produced (server BalancingViews.RunView). */
export interface RunView {
  runId: number;
  clusterId: string;
  trigger: string;
  strategy: string;
  recommendationIds: number[];
  appliedRecommendationIds: number[];
  faults: { reasonCode?: string; message?: string }[];
  notes: string[];
}

/** A datastore's maintenance state after enter/exit (server BalancingViews.MaintenanceView). */
export interface MaintenanceView {
  datastoreId: string;
  datastoreName: string;
  clusterId: string;
  state: string;
  ignoreAffinity: boolean;
  disksRemaining: number;
  /** VMs whose home (configuration files) is still on the datastore */
  vmHomesRemaining: number;
  recommendationIds: number[];
  appliedRecommendationIds: number[];
  faults: { reasonCode?: string; message?: string }[];
  notes: string[];
}

/**
 * A disk or VM home still on a datastore in maintenance mode, with where it stands in the
 * evacuation (server BalancingViews.LeftView).
 */
export interface LeftView {
  vmId: string;
  vmName: string;
  /** null for the VM's home */
  diskKey: number | null;
  /** "disk 2000" or "home" */
  what: string;
  /** the disk's size, or the home's files (configuration, logs, a running VM's swap file) */
  sizeBytes: number;
  /** moving, recommended, moved, fault, failed, dismissed, unplanned, back */
  status: string;
  recommendationId: number | null;
  detail: string | null;
}

/** A datastore's maintenance mode and what keeps it entering (GET /datastores/{name}/maintenance). */
export interface MaintenanceStatusView {
  datastoreId: string;
  datastoreName: string;
  clusterId: string;
  /** NORMAL, ENTERING or IN_MAINTENANCE */
  state: string;
  ignoreAffinity: boolean;
  /** false while Storage DRS has planned no evacuation (it is off for the cluster) */
  evacuationPlanned: boolean;
  left: LeftView[];
}

export interface SettingsView {
  /** vCenter's "Turn ON vSphere Storage DRS" (podConfig.enabled): off, the server makes no balancing run. */
  storageDrsEnabled: boolean;
  modelKind: string;
  automationLevel: 'manual' | 'automated' | string;
  spaceThresholdPct: number;
  minSpaceDifferencePct: number;
  latencyThresholdMs: number;
  ioImbalanceThreshold: number;
  loadBalanceIntervalMinutes: number;
  ioLoadBalanceEnabled: boolean;
  keepVmdksTogether: boolean;
  /** "Ignore affinity rules for maintenance": vCenter's pod option IgnoreAffinityRulesForMaintenance. */
  ignoreAffinityForMaintenance?: boolean;
  congestionAlpha: number;
  spaceAutomationLevel: 'manual' | 'automated' | 'inherit' | string;
  ioAutomationLevel: 'manual' | 'automated' | 'inherit' | string;
  /** Rule enforcement's own level (vCenter's automationOverrides.ruleEnforcementAutomationMode). */
  ruleAutomationLevel?: 'manual' | 'automated' | 'inherit' | string;
  /** VM evacuation's own level, for maintenance mode (vCenter's automationOverrides.vmEvacuationAutomationMode). */
  evacuationAutomationLevel?: 'manual' | 'automated' | 'inherit' | string;
  strategy: string;
  spaceThresholdMode: 'utilization' | 'freeSpace' | string;
  freeSpaceThresholdGb: number;
  /** Per-VM automation (held in vCenter too) and SLEDS service class; a PUT without it keeps them. */
  vmOverrides?: VmOverrideEntry[];
  /** The cluster's SLEDS service classes (this server's, not vCenter's); a PUT without it keeps them. */
  serviceClasses?: ServiceClassEntry[];
}

/** A SLEDS service class and its SLO (SPEC §3.5): the delivery bound holds while its streams together stay under the demand bounds. */
export interface ServiceClassEntry {
  id: string;
  deliveryBoundMs: number;
  demandBoundIops: number;
  demandBoundBytesPerSecond: number;
  /** The share of windows the delivery bound may be missed in (SLEDS §3); the server's default 5 when absent. */
  allowedMissPct?: number | null;
}

/** GET /clusters/{id}/sleds: the SLEDS controller's last step on the cluster (at null before one). */
export interface SledsView {
  clusterId: string;
  at: string | null;
  /**
   * Each class: its last window ({@code meetsSlo}) and, over its last {@code windows} statistics windows, the
   * {@code missedWindows} it missed its delivery bound in within its demand; {@code compliant} null before a window.
   */
  classes: Array<ServiceClassEntry & { latencyMs: number | null; meetsSlo: boolean | null; streams: number; windows: number;
    missedWindows: number; compliant: boolean | null }>;
  streams: SledsStreamView[];
  actions: string[];
}

/** One classified stream (a VM disk's IO from its host) as the step measured it; a null limit is unthrottled. */
export interface SledsStreamView {
  host: string;
  vmId: string;
  vmName: string;
  diskKey: number;
  datastoreId: string;
  datastoreName: string;
  classId: string;
  /** What the sample covers: 1 while the host's agent sends the stream's seconds, else its 20-s statistics window. */
  windowSeconds: number;
  iops: number;
  bytesPerSecond: number;
  latencyMs: number;
  iopsLimit: number | null;
  bytesPerSecondLimit: number | null;
}

/** One VM's entry in the settings' vmOverrides. */
export interface VmOverrideEntry {
  vmId: string;
  behavior: 'default' | 'manual' | 'automated' | 'excluded' | string;
  serviceClass?: string | null;
}

/**
 * The settings' vmOverrides with the VM's automation set to {@code behavior}, its service class
 * kept; an entry left with neither is dropped (the VM follows the cluster).
 */
export function withVmAutomation(overrides: VmOverrideEntry[], vmId: string, behavior: string): VmOverrideEntry[] {
  const out = overrides.filter((o) => o.vmId !== vmId);
  const serviceClass = overrides.find((o) => o.vmId === vmId)?.serviceClass ?? null;
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
  if (behavior !== 'default' || classId != null) out.push({ vmId, behavior, serviceClass: classId });
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

export interface ClusterView {
  id: string;
  name: string;
  datacenter: string;
  datastores: number;
  modelKind: string;
  selectedModelKind: string;
  settings: SettingsView;
}

export interface SpaceView {
  capacityBytes: number;
  freeBytes: number;
  utilizationPct: number;
}

export interface ModelSummary {
  kind: string;
  source: string;
  parameters: Record<string, number>;
  rSquared: number | null;
  fittedAt: string | null;
}

export interface DatastoreView {
  name: string;
  id: string | null;
  cluster: string | null;
  accessible: boolean;
  maintenanceMode: string;
  space: SpaceView | null;
  model: ModelSummary;
}

/** p50/p70/p90 per metric (LATENCY_MS, OUTSTANDING_IOS, IOPS, ...) over one window. */
export interface PercentilesView {
  subject: string;
  window: string;
  fromMs: number | null;
  lastSampleMs: number | null;
  samples: number;
  metrics: Record<string, { p50: number; p70: number; p90: number }>;
}

export interface DatastoreDetail {
  datastore: DatastoreView;
  hosts: string[];
  disks: number;
  percentiles: PercentilesView[];
}

export interface FitPoint {
  outstandingIos: number;
  ioSizeKb: number;
  readShare: number;
  randomness: number;
  latencyMs: number;
  iops: number | null;
}

export interface ModelRecord {
  id: number | null;
  datastore: string;
  kind: string;
  source: string;
  valid: boolean;
  rSquared: number | null;
  points: number;
  parameters: Record<string, number>;
  fitPoints: FitPoint[];
  invalidReason: string | null;
  fittedAt: string | null;
}

export interface ModelView {
  datastore: string;
  clusterModelKind: string;
  model: ModelRecord;
  heldOutErrorMs: Record<string, number>;
}

export interface ModelSelection {
  configured: string;
  selected: string;
  heldOutMeanAbsErrorMs: Record<string, number>;
}

export interface DiskView {
  vm: string;
  vmName: string;
  diskKey: number;
  file: string;
  sizeBytes: number;
  datastore: string | null;
}

/**
 * A recommendation. The first fields are the server's RecommendationView; the optional ones
 * (predicted latencies with interval, model, names) are what the plugin shows when the
 * balancing engine provides them.
 */
export interface RecommendationView {
  id: number;
  vm: string;
  diskKey: number | null;
  source: string;
  destination: string;
  reason: string;
  benefit: number | null;
  cost: number | null;
  confidence: number | null;
  state: string;
  createdAt: string;
  /** The VM's home alone moves (its configuration files); its disks stay where they are. */
  homeOnly?: boolean;
  vmName?: string;
  sourceName?: string;
  destinationName?: string;
  modelKind?: string;
  predicted?: PredictedLatency;
}

export interface PredictedLatency {
  /** Source datastore latency before/after the move, ms */
  sourceBeforeMs: number;
  sourceAfterMs: number;
  destinationBeforeMs: number;
  destinationAfterMs: number;
  /** Prediction interval of the after-values, ms, and its level (0.95) */
  intervalLowMs?: number;
  intervalHighMs?: number;
  intervalLevel?: number;
}

/** One storage vMotion of a recommendation (MigrationController.ActionView). */
export interface ActionView {
  id: number;
  vmId: string;
  diskKeys: number[] | null;
  sourceDatastoreIds: string[];
  destinationDatastoreId: string;
  hostId: string | null;
  sizeBytes: number;
  state: 'QUEUED' | 'ISSUING' | 'RUNNING' | 'VERIFYING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED' | string;
  taskId: string | null;
  attempt: number;
  progress: number | null;
  faultType: string | null;
  faultMessage: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** A recommendation with its actions (MigrationController.RecommendationView): apply/dismiss/cancel answer this. */
export interface RecommendationDetail {
  id: number;
  clusterId: string;
  reasonCode: string;
  state: 'PENDING' | 'APPLYING' | 'APPLIED' | 'FAILED' | 'DISMISSED' | 'CANCELLED' | string;
  cancelRequested: boolean;
  faultType: string | null;
  faultMessage: string | null;
  createdAt: string;
  updatedAt: string | null;
  actions: ActionView[];
}

export interface MigrationsView {
  maxPerDatastore: number;
  maxPerHost: number;
  inFlight: ActionView[];
  maxObservedInFlight: unknown;
}

export interface HistoryView {
  id: number;
  action: string;
  detail: string | null;
  recommendationId: number | null;
  occurredAt: string;
  /** Measured outcome after the move, when the server records it. */
  outcome?: { measuredBeforeMs?: number; measuredAfterMs?: number; note?: string };
}

export interface FaultView {
  id: number;
  subject: string;
  reason: string;
  createdAt: string;
}

/** A fault reading the IO statistics from vCenter's performance counters. */
export interface StatisticsFaultView {
  kind: string;
  subject: string;
  detail: string;
  firstSeen: string;
  lastSeen: string;
  occurrences: number;
  active: boolean;
  resolvedAt: string | null;
}

/** How the cluster's IO statistics are read (vCenter's realtime performance counters). */
export interface StatisticsView {
  source: string;
  intervalSeconds: number;
  lastReadAt: string | null;
  lastReadMillis: number;
  /** Running VMs the last read asked vCenter about. */
  lastReadVms: number;
  /** Disk windows the last read stored. */
  lastReadWindows: number;
  newestSample: string | null;
  nextReadIn: string | null;
  lastFailure: string | null;
  faults: StatisticsFaultView[];
}

export interface RuleView {
  id: string | number;
  kind: 'vmdkAntiAffinity' | 'vmAntiAffinity' | 'intraVmAffinity' | string;
  name: string;
  enabled: boolean;
  members: string[];
}

/** POST /clusters/{id}/rules: a VM anti-affinity rule for vCenter to hold (RuleRequest). */
/** A VM anti-affinity rule over vmIds, or a VMDK anti-affinity rule over diskKeys of vmId (ClustersController.createRule). */
export type RuleRequest =
  | { kind: 'vmAntiAffinity'; name: string; vmIds: string[] }
  | { kind: 'vmdkAntiAffinity'; name: string; vmId: string; diskKeys: number[] }
  | { kind: 'intraVmAffinity'; vmId: string; enabled: boolean };

export interface VmOverrideView {
  vm: string;
  vmName?: string;
  /** The VM's Storage DRS automation, held in vCenter (its "VM Overrides") too. */
  automationLevel: 'default' | 'manual' | 'automated' | 'excluded' | string;
  keepVmdksTogether?: boolean | null;
  serviceClass?: string | null;
}

export interface PlanRequest {
  workload: { outstandingIos: number; ioSizeKb: number; readShare: number; randomness: number };
  count: number;
}

export interface PlanResult {
  datastores: Array<{ name: string; fits: number; qMax: number; qAlpha: number; model: string }>;
  total: number;
}

export type SettingsRequest = SettingsView;

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

const enc = encodeURIComponent;

export class ApiClient {
  private readonly baseUrl: string;
  private readonly fetchFn: FetchLike;
  private readonly authHeaders: () => Record<string, string>;
  private capabilitiesPromise: Promise<Capabilities> | null = null;

  constructor(opts: ApiClientOptions = {}) {
    this.baseUrl = (opts.baseUrl ?? '').replace(/\/$/, '');
    this.fetchFn = opts.fetch ?? ((i, init) => fetch(i, init));
    this.authHeaders = opts.authHeaders ?? (() => ({}));
  }

  // ------------------------------------------------------------ clusters (ClustersController)
  clusters(): Promise<ClusterView[]> {
    return this.get('/api/v1/clusters');
  }
  cluster(id: string): Promise<ClusterView> {
    return this.get(`/api/v1/clusters/${enc(id)}`);
  }
  settings(id: string): Promise<SettingsView> {
    return this.get(`/api/v1/clusters/${enc(id)}/settings`);
  }
  putSettings(id: string, s: SettingsRequest): Promise<SettingsView> {
    return this.send('PUT', `/api/v1/clusters/${enc(id)}/settings`, s);
  }
  modelSelection(id: string): Promise<ModelSelection> {
    return this.get(`/api/v1/clusters/${enc(id)}/model-selection`);
  }
  recommendations(id: string, limit = 100): Promise<RecommendationView[]> {
    return this.get(`/api/v1/clusters/${enc(id)}/recommendations?limit=${limit}`);
  }
  history(id: string, limit = 100): Promise<HistoryView[]> {
    return this.get(`/api/v1/clusters/${enc(id)}/history?limit=${limit}`);
  }
  faults(id: string, limit = 100): Promise<FaultView[]> {
    return this.get(`/api/v1/clusters/${enc(id)}/faults?limit=${limit}`);
  }
  statistics(id: string): Promise<StatisticsView> {
    return this.get(`/api/v1/clusters/${enc(id)}/statistics`);
  }

  // ------------------------------------------------------------ datastores (DatastoresController)
  datastores(cluster?: string): Promise<DatastoreView[]> {
    return this.get(`/api/v1/datastores${cluster ? `?cluster=${enc(cluster)}` : ''}`);
  }
  datastore(name: string): Promise<DatastoreDetail> {
    return this.get(`/api/v1/datastores/${enc(name)}`);
  }
  model(name: string, kind?: string): Promise<ModelView> {
    return this.get(`/api/v1/datastores/${enc(name)}/model${kind ? `?kind=${enc(kind)}` : ''}`);
  }
  percentiles(name: string, window?: string): Promise<PercentilesView> {
    return this.get(`/api/v1/datastores/${enc(name)}/percentiles${window ? `?window=${enc(window)}` : ''}`);
  }

  // ------------------------------------------------------------ disks (DisksController)
  disks(datastore?: string, limit = 1000): Promise<DiskView[]> {
    const q = new URLSearchParams({ limit: String(limit) });
    if (datastore) q.set('datastore', datastore);
    return this.get(`/api/v1/disks?${q}`);
  }

  // ------------------------------------------------------------ recommendations (MigrationController)
  recommendation(recId: number): Promise<RecommendationDetail> {
    return this.get(`/api/v1/recommendations/${recId}`, true);
  }
  /** Queues the recommendation's storage vMotions (409 unless PENDING, or without vCenter). */
  applyRecommendation(recId: number): Promise<RecommendationDetail> {
    return this.send('POST', `/api/v1/recommendations/${recId}/apply`, undefined, true);
  }
  dismissRecommendation(recId: number): Promise<RecommendationDetail> {
    return this.send('POST', `/api/v1/recommendations/${recId}/dismiss`, undefined, true);
  }
  cancelRecommendation(recId: number): Promise<RecommendationDetail> {
    return this.send('POST', `/api/v1/recommendations/${recId}/cancel`, undefined, true);
  }
  migrations(): Promise<MigrationsView> {
    return this.get('/api/v1/migrations', true);
  }

  // ------------------------------------------------------------ balancing (server: BalancingController)
  /** "Run Storage DRS now" (POST /clusters/{id}/run). */
  runNow(clusterId: string): Promise<RunView> {
    return this.send('POST', `/api/v1/clusters/${enc(clusterId)}/run`, undefined, true);
  }
  /** The datastore's maintenance mode and each disk and VM home still on it, with where it stands in the evacuation. */
  maintenanceStatus(datastore: string): Promise<MaintenanceStatusView> {
    return this.get(`/api/v1/datastores/${enc(datastore)}/maintenance`, true);
  }
  /** Enter or exit maintenance mode; entering returns the evacuation's recommendations and faults. */
  maintenance(datastore: string, enter: boolean, ignoreAffinity = false): Promise<MaintenanceView> {
    return this.send('POST', `/api/v1/datastores/${enc(datastore)}/maintenance`, { enter, ignoreAffinity }, true);
  }

  /** The cluster's Storage DRS rules as vCenter holds them (ClustersController.rules). */
  rules(clusterId: string): Promise<RuleView[]> {
    return this.get(`/api/v1/clusters/${enc(clusterId)}/rules`, true);
  }
  /** Creates a VM or VMDK anti-affinity rule in vCenter; answered with the rule as read back (ClustersController.createRule). */
  createRule(clusterId: string, r: RuleRequest): Promise<RuleView> {
    return this.send('POST', `/api/v1/clusters/${enc(clusterId)}/rules`, r, true);
  }
  /** Removes a VM anti-affinity rule or a VM's VMDK anti-affinity rule from vCenter (ClustersController.deleteRule). */
  deleteRule(clusterId: string, ruleId: string): Promise<void> {
    return this.send('DELETE', `/api/v1/clusters/${enc(clusterId)}/rules/${enc(ruleId)}`, undefined, true);
  }
  /** The SLEDS controller's last step on the cluster: classes against their SLO, streams and their limits (ClustersController.sleds). */
  sleds(clusterId: string): Promise<SledsView> {
    return this.get(`/api/v1/clusters/${enc(clusterId)}/sleds`, true);
  }
  /** Per-VM automation, service class and keep-together (ClustersController.vmOverrides). */
  vmOverrides(clusterId: string): Promise<VmOverrideView[]> {
    return this.get(`/api/v1/clusters/${enc(clusterId)}/vm-overrides`, true);
  }

  // ------------------------------------------------------------ not on the server yet (→ NotAvailableError)
  plan(clusterId: string, req: PlanRequest): Promise<PlanResult> {
    return this.send('POST', `/api/v1/clusters/${enc(clusterId)}/capacity-plan`, req, true);
  }

  // ------------------------------------------------------------ capabilities
  /**
   * The operations the server has, from its OpenAPI document (springdoc, /v3/api-docs), read
   * once. Optional endpoints missing from it are reported as not available without a request;
   * when the document itself is unavailable every endpoint is tried (404 → not available).
   */
  capabilities(): Promise<Capabilities> {
    if (!this.capabilitiesPromise) {
      this.capabilitiesPromise = this.send<OpenApiDoc>('GET', '/v3/api-docs', undefined, true, false)
        .then((doc) => Capabilities.fromOpenApi(doc))
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
  private get<T>(path: string, optional = false): Promise<T> {
    return this.send('GET', path, undefined, optional);
  }

  private async send<T>(method: string, path: string, body?: unknown, optional = false, checkCapabilities = true): Promise<T> {
    if (optional && checkCapabilities && !(await this.has(method, path))) {
      throw new NotAvailableError(`${method} ${path.split('?')[0]}`);
    }
    const headers: Record<string, string> = {
      Accept: 'application/json',
      // Spring Security answers 401 without `WWW-Authenticate: Basic` for XHR-style requests,
      // so a wrong password never opens the browser's own login dialog.
      'X-Requested-With': 'XMLHttpRequest',
      ...this.authHeaders(),
    };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await this.fetchFn(this.baseUrl + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
    });
    if (res.ok) {
      if (res.status === 204) return undefined as T;
      const text = await res.text();
      return (text ? JSON.parse(text) : undefined) as T;
    }
    if (res.status === 401) throw new UnauthorizedError(path);
    const problem = await readProblem(res);
    if (res.status === 404 && (optional || isMissingEndpoint(problem.detail))) throw new NotAvailableError(path);
    throw new ApiError(res.status, path, problem.detail, problem.field);
  }
}

/** Spring's answer for a path no controller maps (as opposed to a controller's "no datastore X"). */
export function isMissingEndpoint(detail: string): boolean {
  return /^No (static resource|endpoint|handler)/i.test(detail) || detail === '';
}

async function readProblem(res: Response): Promise<{ detail: string; field?: string }> {
  let text = '';
  try {
    text = await res.text();
  } catch {
    /* body unreadable */
  }
  try {
    const p = JSON.parse(text) as { detail?: string; title?: string; field?: string; message?: string; errors?: Array<{ field: string; message: string }> };
    const errors = p.errors?.map((e) => `${e.field}: ${e.message}`).join('; ');
    return { detail: errors || p.detail || p.message || p.title || res.statusText || '', field: p.field ?? p.errors?.[0]?.field };
  } catch {
    return { detail: text.slice(0, 300) || res.statusText || '' };
  }
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
