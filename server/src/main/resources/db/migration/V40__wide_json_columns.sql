-- The JSON columns that grow with the data: a model's fit points (every passive observation of a
-- busy datastore), an injector run's points and a recommendation's explanation. VARCHAR(16000)
-- was too small on PostgreSQL ("value too long for type character varying(16000)" on every model
-- refresh). TEXT is a character large object in H2 2.x and an unbounded string in PostgreSQL.
ALTER TABLE datastore_model ALTER COLUMN fit_points_json SET DATA TYPE TEXT;
ALTER TABLE injector_run ALTER COLUMN points_json SET DATA TYPE TEXT;
ALTER TABLE recommendation_explanation ALTER COLUMN explanation_json SET DATA TYPE TEXT;
