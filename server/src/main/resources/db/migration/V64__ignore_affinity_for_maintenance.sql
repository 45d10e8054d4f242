-- "Ignore affinity rules for maintenance" (SPEC §4), shared with vCenter's pod option
-- IgnoreAffinityRulesForMaintenance: a maintenance request that does not say, and one begun in the
-- vSphere Client, follows it.
ALTER TABLE cluster_settings ADD COLUMN ignore_affinity_for_maintenance BOOLEAN DEFAULT FALSE NOT NULL;
