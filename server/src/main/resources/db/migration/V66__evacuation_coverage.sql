-- What an evacuation accounts for (balancing/EvacuationCoverage). evacuation_run_id: the
-- balancing_run of the datastore's latest evacuation plan, whose recommendations and faults name
-- what it moves or leaves; something on the datastore it names nowhere (a VM created there, a disk
-- or home put back after its move) gets the evacuation planned again. last_read_at: when the read of
-- vCenter behind the stored inventory began, so that a move verified done before it and still
-- shown on the datastore is known to be back, not a lagging inventory.
ALTER TABLE datastore_maintenance ADD COLUMN evacuation_run_id BIGINT;
ALTER TABLE inventory_sync_state ADD COLUMN last_read_at TIMESTAMP WITH TIME ZONE;
