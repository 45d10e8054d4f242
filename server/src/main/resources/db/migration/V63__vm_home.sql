-- The VM's home: the datastore of its configuration file (summary.config.vmPathName). A datastore is
-- empty for vCenter's maintenance mode only once no VM has a file on it, its home included; an
-- evacuation moves a home left behind by its disks with a move of the home alone (home_only).
ALTER TABLE vm ADD COLUMN home_datastore_moid VARCHAR(64);
ALTER TABLE migration_action ADD COLUMN home_only BOOLEAN DEFAULT FALSE NOT NULL;
