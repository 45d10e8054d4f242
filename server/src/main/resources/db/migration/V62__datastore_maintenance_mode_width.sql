-- vCenter's DatastoreSummaryMaintenanceModeState values: normal, enteringMaintenance (19
-- characters: VARCHAR(16) could not hold it, so a datastore entering maintenance mode in vCenter
-- failed the inventory sync) and inMaintenance.
ALTER TABLE datastore ALTER COLUMN maintenance_mode SET DATA TYPE VARCHAR(32);
