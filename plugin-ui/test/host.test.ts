import { beforeEach, describe, expect, it, vi } from 'vitest';
import { StandaloneHost, VSphereHost, detectSdk, parseObjectId, type HtmlClientSdk } from '../src/host';

function fakeSdk(theme = 'dark') {
  let themeCb: ((t: { name: string }) => void) | undefined;
  const sdk: HtmlClientSdk = {
    initialize: (cb) => cb(),
    app: {
      getContextObjects: () => [{ id: 'urn:vmomi:StoragePod:group-p1:6d5f7a39-guid', name: 'pod-gold' }],
      getTheme: () => ({ name: theme }),
      getSessionInfo: (cb) => cb({ sessionToken: 'tok-1' }),
    },
    modal: { open: vi.fn(), close: vi.fn() },
    event: { onThemeChanged: (cb) => (themeCb = cb) },
  };
  return { sdk, changeTheme: (n: string) => themeCb?.({ name: n }) };
}

describe('host', () => {
  beforeEach(() => {
    sessionStorage.clear();
    localStorage.clear();
  });
  it('parses vSphere object ids', () => {
    expect(parseObjectId('urn:vmomi:StoragePod:group-p1:guid', 'pod')).toEqual({ type: 'StoragePod', moid: 'group-p1', name: 'pod' });
    expect(parseObjectId('urn:vmomi:Datastore:datastore-12:guid')).toEqual({ type: 'Datastore', moid: 'datastore-12', name: undefined });
    expect(parseObjectId('urn:vmomi:VirtualMachine:vm-1:guid')).toBeNull();
    expect(parseObjectId(undefined)).toBeNull();
  });
  it('standalone outside an iframe even when an SDK object exists', () => {
    window.htmlClientSdk = fakeSdk().sdk;
    expect(detectSdk(window)).toBeNull();
    delete window.htmlClientSdk;
  });
  it('vSphere inside an iframe with the SDK', () => {
    const { sdk } = fakeSdk();
    const framed = { parent: {}, htmlClientSdk: sdk } as unknown as Window;
    expect(detectSdk(framed)).toBe(sdk);
    expect(detectSdk({ parent: {} } as unknown as Window)).toBeNull();
  });
  it('VSphereHost follows the client: context, theme, modals, session', () => {
    const { sdk, changeTheme } = fakeSdk('dark');
    const host = new VSphereHost(sdk);
    expect(host.context()).toEqual({ type: 'StoragePod', moid: 'group-p1', name: 'pod-gold' });
    expect(host.theme()).toBe('dark');
    expect(document.body.getAttribute('cds-theme')).toBe('dark');
    const seen: string[] = [];
    host.onThemeChange((t) => seen.push(t));
    changeTheme('light');
    expect(host.theme()).toBe('light');
    expect(seen).toEqual(['light']);
    expect(host.canToggleTheme()).toBe(false);
    host.openModal('#/modal/run-now?cluster=group-p1', 'Run now');
    expect(sdk.modal.open).toHaveBeenCalledWith(expect.objectContaining({ title: 'Run now', url: expect.stringMatching(/#\/modal\/run-now\?cluster=group-p1$/) }));
    host.closeModal('x');
    expect(sdk.modal.close).toHaveBeenCalledWith('x');
    expect(host.authHeaders()).toEqual({ 'vmware-api-session-id': 'tok-1' });
  });
  it('StandaloneHost: login, theme toggle, in-page modals', () => {
    const open = vi.fn();
    const close = vi.fn();
    localStorage.setItem('opensdrs.theme', 'light');
    const host = new StandaloneHost(open, close);
    expect(host.isLoggedIn()).toBe(false);
    expect(host.authHeaders()).toEqual({});
    host.login('admin', 'pw');
    expect(host.authHeaders().Authorization).toBe(`Basic ${btoa('admin:pw')}`);
    expect(new StandaloneHost(open, close).isLoggedIn()).toBe(true); // kept for the tab
    expect(host.theme()).toBe('light');
    expect(host.toggleTheme()).toBe('dark');
    expect(document.body.getAttribute('cds-theme')).toBe('dark');
    expect(localStorage.getItem('opensdrs.theme')).toBe('dark');
    host.openModal('#/modal/settings', 'Settings');
    expect(open).toHaveBeenCalledWith('#/modal/settings', 'Settings', undefined);
    host.logout();
    expect(host.isLoggedIn()).toBe(false);
    expect(sessionStorage.length).toBe(0);
  });
});
