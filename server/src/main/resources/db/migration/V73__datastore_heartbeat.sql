-- Each agent's newest view of a datastore's heartbeat file (its DatastoreState, Pesto §5.1.1): who
-- leads, which hosts are live, whether it is idle. One row per (datastore, host), replaced by each
-- report. The datastore's IO is not taken from it: the blocks carry what the server read from
-- vCenter's counters, whose samples are the passive observations.
CREATE TABLE datastore_heartbeat (
    datastore_name  VARCHAR(255)  NOT NULL,
    host            VARCHAR(255)  NOT NULL,
    leader_host     VARCHAR(255)  NOT NULL,
    live_hosts      VARCHAR(2000) NOT NULL,
    idle            BOOLEAN       NOT NULL,
    period_end_ms   BIGINT        NOT NULL,
    received_at     TIMESTAMP WITH TIME ZONE NOT NULL,
    PRIMARY KEY (datastore_name, host)
);
