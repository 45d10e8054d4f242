-- SLEDS §3: a service class's delivery bound may be missed in at most a given share of windows (SPEC §3.5).
ALTER TABLE service_class ADD COLUMN allowed_miss_pct DOUBLE PRECISION DEFAULT 5 NOT NULL;
