import { describe, expect, it, vi } from 'vitest';
import { ApiClient, ApiError, Capabilities, NotAvailableError, UnauthorizedError, basicAuth, isMissingEndpoint, withVmAutomation } from '../src/api';

function json(status: number, body: unknown, type = 'application/json'): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': type } });
}

const OPENAPI = {
  paths: {
    '/api/v1/clusters': { get: {} },
    '/api/v1/clusters/{clusterId}/recommendations': { get: {}, post: {} },
    '/api/v1/recommendations/{id}/apply': { post: {} },
    '/api/v1/recommendations/{id}': { get: {} },
    '/api/v1/datastores/{name}': { get: {} },
  },
};

function client(handler: (url: string, init?: RequestInit) => Response) {
  const fetch = vi.fn(async (url: string, init?: RequestInit) => handler(url, init));
  const api = new ApiClient({ baseUrl: 'http://srv/', fetch, authHeaders: () => ({ Authorization: basicAuth('admin', 'pw') }) });
  return { api, fetch };
}

describe('ApiClient', () => {
  it('calls the server paths with Basic auth and the XHR header', async () => {
    const { api, fetch } = client(() => json(200, [{ id: 'group-p1', name: 'pod' }]));
    const cs = await api.clusters();
    expect(cs[0].name).toBe('pod');
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe('http://srv/api/v1/clusters');
    const headers = init!.headers as Record<string, string>;
    expect(headers.Authorization).toBe(`Basic ${btoa('admin:pw')}`);
    expect(headers['X-Requested-With']).toBe('XMLHttpRequest');
    expect(init!.method).toBe('GET');
  });

  it('encodes path segments and query parameters', async () => {
    const { api, fetch } = client(() => json(200, []));
    await api.datastore('ds 1#a');
    await api.datastores('group-p1');
    await api.disks('ds 1', 50);
    await api.model('ds1', 'romano');
    await api.recommendations('group-p1', 5);
    expect(fetch.mock.calls.map((c) => c[0])).toEqual([
      'http://srv/api/v1/datastores/ds%201%23a',
      'http://srv/api/v1/datastores?cluster=group-p1',
      'http://srv/api/v1/disks?limit=50&datastore=ds%201',
      'http://srv/api/v1/datastores/ds1/model?kind=romano',
      'http://srv/api/v1/clusters/group-p1/recommendations?limit=5',
    ]);
  });

  it('sends settings as JSON with PUT', async () => {
    const { api, fetch } = client((_u, init) => json(200, JSON.parse(String(init!.body))));
    const s = { storageDrsEnabled: true, modelKind: 'auto', automationLevel: 'manual', spaceThresholdPct: 80, minSpaceDifferencePct: 5, latencyThresholdMs: 15,
      ioImbalanceThreshold: 5, loadBalanceIntervalMinutes: 960, ioLoadBalanceEnabled: true, keepVmdksTogether: true, congestionAlpha: 0.9,
      spaceAutomationLevel: 'inherit', ioAutomationLevel: 'inherit', strategy: 'auto', spaceThresholdMode: 'utilization', freeSpaceThresholdGb: 50 };
    expect(await api.putSettings('group-p1', s)).toEqual(s);
    const init = fetch.mock.calls[0][1]!;
    expect(init.method).toBe('PUT');
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
  });

  it('turns a problem detail into an ApiError naming the field', async () => {
    const { api } = client(() => json(400, { title: 'Bad Request', detail: 'invalid', field: 'latencyThresholdMs',
      errors: [{ field: 'latencyThresholdMs', message: 'must be greater than or equal to 5' }] }, 'application/problem+json'));
    const e = await api.settings('x').catch((x) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect(e.status).toBe(400);
    expect(e.field).toBe('latencyThresholdMs');
    expect(e.detail).toContain('must be greater than or equal to 5');
  });

  it('401 is an UnauthorizedError', async () => {
    const { api } = client(() => new Response(null, { status: 401 }));
    await expect(api.clusters()).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('a controller 404 ("no datastore X") stays an ApiError; an unmapped path is NotAvailable', async () => {
    const { api } = client((u) => u.includes('/datastores/')
      ? json(404, { detail: 'no datastore nope' })
      : json(404, { detail: 'No static resource api/v1/clusters/x.' }));
    const e1 = await api.datastore('nope').catch((x) => x);
    expect(e1).toBeInstanceOf(ApiError);
    expect(e1).not.toBeInstanceOf(NotAvailableError);
    expect(e1.detail).toBe('no datastore nope');
    await expect(api.cluster('x')).rejects.toBeInstanceOf(NotAvailableError);
  });

  it('does not request optional endpoints the OpenAPI document lacks', async () => {
    const { api, fetch } = client((u) => (u.endsWith('/v3/api-docs') ? json(200, OPENAPI) : json(200, { id: 7, state: 'APPLYING', actions: [] })));
    await expect(api.runNow('group-p1')).rejects.toBeInstanceOf(NotAvailableError);
    await expect(api.rules('group-p1')).rejects.toThrow(/not available/);
    const applied = await api.applyRecommendation(7);
    expect(applied.state).toBe('APPLYING');
    const urls = fetch.mock.calls.map((c) => `${c[1]!.method} ${c[0]}`);
    expect(urls).toEqual(['GET http://srv/v3/api-docs', 'POST http://srv/api/v1/recommendations/7/apply']);
  });

  it('tries optional endpoints when there is no OpenAPI document, 404 → NotAvailable', async () => {
    const { api, fetch } = client(() => json(404, { detail: 'No static resource v3/api-docs.' }));
    const e = await api.maintenance('ds1', true).catch((x) => x);
    expect(e).toBeInstanceOf(NotAvailableError);
    expect(e.path).toBe('/api/v1/datastores/ds1/maintenance');
    expect(fetch.mock.calls.map((c) => c[0])).toEqual(['http://srv/v3/api-docs', 'http://srv/api/v1/datastores/ds1/maintenance']);
    // the server's BalancingController.MaintenanceRequest
    expect(JSON.parse(String(fetch.mock.calls[1][1]!.body))).toEqual({ enter: true, ignoreAffinity: false });
  });

  it('creates and removes VM anti-affinity rules (ClustersController.createRule/deleteRule)', async () => {
    const paths = { paths: { '/api/v1/clusters/{clusterId}/rules': { get: {}, post: {} }, '/api/v1/clusters/{clusterId}/rules/{ruleId}': { delete: {} } } };
    const { api, fetch } = client((u, init) => (u.endsWith('/v3/api-docs') ? json(200, paths)
      : init?.method === 'DELETE' ? new Response(null, { status: 204 })
        : json(201, { id: 'vmAntiAffinity:apart', kind: 'vmAntiAffinity', name: 'apart', enabled: true, members: ['a', 'b'] })));
    const created = await api.createRule('group-p1', { kind: 'vmAntiAffinity', name: 'apart', vmIds: ['vm-1', 'vm-2'] });
    expect(created.id).toBe('vmAntiAffinity:apart');
    expect(fetch.mock.calls[1][0]).toBe('http://srv/api/v1/clusters/group-p1/rules');
    expect(fetch.mock.calls[1][1]!.method).toBe('POST');
    // the server's RuleRequest
    expect(JSON.parse(String(fetch.mock.calls[1][1]!.body))).toEqual({ kind: 'vmAntiAffinity', name: 'apart', vmIds: ['vm-1', 'vm-2'] });
    await expect(api.deleteRule('group-p1', 'vmAntiAffinity:a b')).resolves.toBeUndefined();
    expect(fetch.mock.calls[2][0]).toBe('http://srv/api/v1/clusters/group-p1/rules/vmAntiAffinity%3Aa%20b');
    expect(fetch.mock.calls[2][1]!.method).toBe('DELETE');
  });

  it('asks the server for the capacity plan (CapacityPlanController)', async () => {
    const paths = { paths: { '/api/v1/clusters/{clusterId}/capacity-plan': { post: {} } } };
    const { api, fetch } = client((u) => (u.endsWith('/v3/api-docs') ? json(200, paths) : json(200, { clusterId: 'group-p1', fits: 3, count: 4, datastores: [] })));
    const req = { workload: { oio: 4, ioSizeKB: 8, readPct: 70, randomPct: 80 }, count: 4 };
    expect((await api.capacityPlan('group-p1', req)).fits).toBe(3);
    expect(fetch.mock.calls[1][0]).toBe('http://srv/api/v1/clusters/group-p1/capacity-plan');
    expect(fetch.mock.calls[1][1]!.method).toBe('POST');
    expect(JSON.parse(String(fetch.mock.calls[1][1]!.body))).toEqual(req);
  });

  it('handles 204 and empty bodies', async () => {
    const { api } = client((u) => (u.endsWith('/v3/api-docs') ? json(200, { paths: { '/api/v1/recommendations/{id}/dismiss': { post: {} } } }) : new Response(null, { status: 204 })));
    await expect(api.dismissRecommendation(3)).resolves.toBeUndefined();
  });
});

describe('Capabilities', () => {
  it('matches concrete paths against templates and methods', () => {
    const c = Capabilities.fromOpenApi(OPENAPI);
    expect(c.known).toBe(true);
    expect(c.has('GET', '/api/v1/clusters')).toBe(true);
    expect(c.has('get', '/api/v1/clusters/group-p1/recommendations?limit=3')).toBe(true);
    expect(c.has('POST', '/api/v1/recommendations/12/apply')).toBe(true);
    expect(c.has('GET', '/api/v1/recommendations/12/apply')).toBe(false);
    expect(c.has('POST', '/api/v1/clusters/group-p1/run')).toBe(false);
    expect(c.has('GET', '/api/v1/datastores/a%20b')).toBe(true);
    expect(c.has('GET', '/api/v1/datastores/a/b')).toBe(false);
    expect(Capabilities.unknown().has('POST', '/anything')).toBe(true);
  });

  it('recognises Spring\'s unmapped-path answers', () => {
    expect(isMissingEndpoint('No static resource api/v1/x.')).toBe(true);
    expect(isMissingEndpoint('')).toBe(true);
    expect(isMissingEndpoint('no datastore ds1')).toBe(false);
  });
});

describe('basicAuth', () => {
  it('encodes UTF-8 credentials', () => {
    // 'ä' is C3 A4 in UTF-8
    expect(basicAuth('admin', 'pässword')).toBe(`Basic ${btoa('admin:p\xc3\xa4ssword')}`);
  });
});

describe('apiBase', () => {
  it('is the parent of ui/, else the origin', async () => {
    const { apiBase } = await import('../src/api');
    expect(apiBase('http://srv:8080/ui/index.html#/overview')).toBe('http://srv:8080');
    expect(apiBase('http://srv:8080/ui/')).toBe('http://srv:8080');
    expect(apiBase('https://vc/plugins/opensdrs/ui/index.html#/summary')).toBe('https://vc/plugins/opensdrs');
    expect(apiBase('http://localhost:5173/index.html')).toBe('http://localhost:5173');
    expect(apiBase('http://localhost:5173/')).toBe('http://localhost:5173');
  });
});

describe('withVmAutomation', () => {
  const list = [
    { vmId: 'vm-1', behavior: 'manual', serviceClass: undefined },
    { vmId: 'vm-2', behavior: 'excluded', serviceClass: 'gold' },
  ];
  it('sets a VM\'s level, adding its entry when it has none', () => {
    expect(withVmAutomation(list, 'vm-1', 'automated')).toEqual([list[1], { vmId: 'vm-1', behavior: 'automated', serviceClass: undefined }]);
    expect(withVmAutomation(list, 'vm-3', 'excluded')).toEqual([...list, { vmId: 'vm-3', behavior: 'excluded', serviceClass: undefined }]);
  });
  it('drops the entry at the default unless it keeps a service class', () => {
    expect(withVmAutomation(list, 'vm-1', 'default')).toEqual([list[1]]);
    expect(withVmAutomation(list, 'vm-2', 'default')).toEqual([list[0], { vmId: 'vm-2', behavior: 'default', serviceClass: 'gold' }]);
  });
});
