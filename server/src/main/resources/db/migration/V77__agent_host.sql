-- The ESX hosts an agent credential is bound to (SPEC §5): those named when it was issued, or else the
-- host of its first registration. A registration or a report for any other host is refused.
CREATE TABLE agent_host (
    agent_id   VARCHAR(128) NOT NULL,
    host_name  VARCHAR(255) NOT NULL,
    PRIMARY KEY (agent_id, host_name),
    CONSTRAINT fk_agent_host_agent FOREIGN KEY (agent_id) REFERENCES agent (agent_id) ON DELETE CASCADE
);
