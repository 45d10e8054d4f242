-- A datastore cluster's Storage DRS rules as vCenter keeps them (StoragePod.podStorageDrsEntry.
-- storageDrsConfig: VM anti-affinity rules, per-VM keep-together and VMDK anti-affinity), as JSON
-- (io.opensdrs.server.vsphere.StorageDrsRules); NULL for a pod read before this column existed.
ALTER TABLE datastore_cluster ADD COLUMN storage_drs_rules_json TEXT;
