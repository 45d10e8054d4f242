-- The datastore and size of a VM's swap file when it is not in the home: with host-local swap placement,
-- on the host's swap datastore (vm.layoutEx). No relocation moves it, so a datastore entering maintenance
-- mode that holds it stays entering until the VM stops (balancing/EvacuationCoverage). Unknown (null, 0)
-- until the next sync reads it.
ALTER TABLE vm ADD COLUMN swap_datastore_moid VARCHAR(64);
ALTER TABLE vm ADD COLUMN swap_bytes BIGINT DEFAULT 0 NOT NULL;
