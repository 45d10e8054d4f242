-- Whether Storage DRS has planned the evacuation of a datastore entering maintenance mode. vSphere
-- makes no evacuation recommendations while Storage DRS is off for the pod: the datastore then
-- stays entering until its disks are moved by hand, or until Storage DRS is turned on and plans
-- them (balancing/MaintenanceMode.progress).
ALTER TABLE datastore_maintenance ADD COLUMN evacuation_planned BOOLEAN DEFAULT TRUE NOT NULL;
