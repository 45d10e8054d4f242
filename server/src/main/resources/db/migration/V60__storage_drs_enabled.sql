-- Storage DRS on or off for a datastore cluster: vCenter's podConfig.enabled ("Turn ON vSphere
-- Storage DRS"), shared with the pod like the other settings (settings/VCenterPodSettings).
ALTER TABLE cluster_settings ADD COLUMN storage_drs_enabled BOOLEAN DEFAULT TRUE NOT NULL;
