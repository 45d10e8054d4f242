-- The workloads of a datastore's disks in one statistics sample (JSON list of O, size, read share and
-- randomness), so that each model kind is scored on its prediction for the disks as the balancer asks it,
-- not only for their datastore-wide aggregate. Rows stored before this have none and are scored on the aggregate.
ALTER TABLE datastore_observation ADD COLUMN disks_json TEXT;
