-- The size of a VM's home on its datastore (vm.layoutEx: configuration, NVRAM, logs, swap, snapshot
-- and suspend state; the VMDKs not counted). A move of the home alone lands that much on its
-- destination, which must stay under its space threshold (balancing/HomeSpace). 0 until the next sync reads it.
ALTER TABLE vm ADD COLUMN home_bytes BIGINT DEFAULT 0 NOT NULL;
