-- Rule enforcement's and VM evacuation's own automation levels (SPEC §4 per subsystem), shared with
-- vCenter's automationOverrides.ruleEnforcementAutomationMode and vmEvacuationAutomationMode; null
-- inherits the cluster's level.
ALTER TABLE cluster_settings ADD COLUMN rule_automation_level VARCHAR(16);
ALTER TABLE cluster_settings ADD COLUMN evacuation_automation_level VARCHAR(16);
