-- What the statistics read from vCenter's PerformanceManager need of the inventory: the instance
-- that names a disk in the virtualDisk counters (scsi0:1: its controller's bus and its unit), and
-- whether the VM runs (a powered-off VM has no realtime data, which is then no fault).
ALTER TABLE virtual_disk ADD COLUMN perf_instance VARCHAR(32);
ALTER TABLE vm ADD COLUMN powered_on BOOLEAN DEFAULT TRUE NOT NULL;
