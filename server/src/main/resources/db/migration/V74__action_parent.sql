-- The action plan's edges (OpenStack Watcher's action parents): an action starts only once each of
-- its parents has ended. The balancing engine makes a move the child of the earlier moves that
-- leave its destination, since the plan counted on the space they free; the applier honours them.
CREATE TABLE migration_action_parent (
    action_id        BIGINT NOT NULL,
    parent_action_id BIGINT NOT NULL,
    PRIMARY KEY (action_id, parent_action_id),
    CONSTRAINT fk_action_parent_action FOREIGN KEY (action_id) REFERENCES migration_action (id),
    CONSTRAINT fk_action_parent_parent FOREIGN KEY (parent_action_id) REFERENCES migration_action (id)
);
CREATE INDEX ix_migration_action_parent_parent ON migration_action_parent (parent_action_id);
