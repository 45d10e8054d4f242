import type { ApiClient } from '../api';

/** Datastore moid → name and VM moid → name, for recommendations (the server stores moids). */
export interface Names {
  datastore(idOrName: string): string;
  vm(moid: string): string;
}

export async function loadNames(api: ApiClient, clusterId: string): Promise<Names> {
  const [dss, disks] = await Promise.all([api.datastores(clusterId).catch(() => []), api.disks(undefined, 10000).catch(() => [])]);
  const ds = new Map<string, string>();
  dss.forEach((d) => d.id && ds.set(d.id, d.name));
  const vms = new Map<string, string>();
  disks.forEach((d) => vms.set(d.vm, d.vmName));
  return {
    datastore: (x) => ds.get(x) ?? x,
    vm: (x) => vms.get(x) ?? x,
  };
}
