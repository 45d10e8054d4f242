-- Development data for the plugin's e2e tests, for as long as the server cannot sync an
-- inventory from vCenter by itself (no VCenterInventorySource bean yet) and has no balancing
-- engine filling recommendations. Loaded into a stopped server's H2 database by
-- e2e/dev-server.sh after the server has created its schema. Not used by the product.
INSERT INTO datacenter (moid, name) VALUES ('datacenter-2', 'DC0');
INSERT INTO datastore_cluster (moid, name, datacenter_moid) VALUES ('group-p1', 'pod-gold', 'datacenter-2');
INSERT INTO datastore_cluster (moid, name, datacenter_moid) VALUES ('group-p2', 'pod-bronze', 'datacenter-2');
INSERT INTO datastore (moid, name, url, datacenter_moid, cluster_moid, capacity_bytes, free_bytes, accessible, maintenance_mode) VALUES
 ('datastore-11', 'ssd-01', 'ds:///vmfs/volumes/ssd-01/', 'datacenter-2', 'group-p1', 1099511627776, 824633720832, TRUE, 'normal'),
 ('datastore-12', 'fc15k-raid10', 'ds:///vmfs/volumes/fc15k-raid10/', 'datacenter-2', 'group-p1', 2199023255552, 329853488332, TRUE, 'normal'),
 ('datastore-13', 'sata-raid6', 'ds:///vmfs/volumes/sata-raid6/', 'datacenter-2', 'group-p1', 4398046511104, 1319413953331, TRUE, 'normal'),
 ('datastore-21', 'nl-sas-01', 'ds:///vmfs/volumes/nl-sas-01/', 'datacenter-2', 'group-p2', 4398046511104, 3298534883328, TRUE, 'normal');
INSERT INTO host (moid, name, datacenter_moid) VALUES ('host-31', 'esx-01.lab', 'datacenter-2'), ('host-32', 'esx-02.lab', 'datacenter-2');
INSERT INTO host_datastore (host_moid, datastore_moid) VALUES
 ('host-31', 'datastore-11'), ('host-31', 'datastore-12'), ('host-31', 'datastore-13'),
 ('host-32', 'datastore-11'), ('host-32', 'datastore-12'), ('host-32', 'datastore-13'), ('host-32', 'datastore-21');
INSERT INTO vm (moid, name, host_moid) VALUES ('vm-41', 'db-01', 'host-31'), ('vm-42', 'web-01', 'host-32'), ('vm-43', 'mail-01', 'host-31');
INSERT INTO virtual_disk (vm_moid, disk_key, file_name, size_bytes, datastore_moid) VALUES
 ('vm-41', 2000, '[fc15k-raid10] db-01/db-01.vmdk', 107374182400, 'datastore-12'),
 ('vm-41', 2001, '[fc15k-raid10] db-01/db-01_1.vmdk', 214748364800, 'datastore-12'),
 ('vm-42', 2000, '[ssd-01] web-01/web-01.vmdk', 42949672960, 'datastore-11'),
 ('vm-43', 2000, '[sata-raid6] mail-01/mail-01.vmdk', 536870912000, 'datastore-13');
INSERT INTO datastore_model (datastore_name, model_kind, source, valid, r_squared, points, parameters_json, fit_points_json, invalid_reason, fitted_at) VALUES
 ('ssd-01', 'pesto', 'injector', TRUE, 0.991, 5, '{"m":0.031,"C":0.22,"peak_iops":32258.06,"run_r2":0.991}',
  '[{"outstandingIos":2,"ioSizeKb":4,"readShare":1,"randomness":1,"latencyMs":0.29,"iops":6896},{"outstandingIos":4,"ioSizeKb":4,"readShare":1,"randomness":1,"latencyMs":0.34,"iops":11764},{"outstandingIos":8,"ioSizeKb":4,"readShare":1,"randomness":1,"latencyMs":0.47,"iops":17021},{"outstandingIos":16,"ioSizeKb":4,"readShare":1,"randomness":1,"latencyMs":0.71,"iops":22535},{"outstandingIos":32,"ioSizeKb":4,"readShare":1,"randomness":1,"latencyMs":1.2,"iops":26666}]',
  NULL, CURRENT_TIMESTAMP),
 ('fc15k-raid10', 'pesto', 'injector', TRUE, 0.982, 5, '{"m":0.52,"C":4.1,"peak_iops":1923.08,"run_r2":0.982}',
  '[{"outstandingIos":2,"ioSizeKb":4,"readShare":1,"randomness":1,"latencyMs":5.3,"iops":377},{"outstandingIos":4,"ioSizeKb":4,"readShare":1,"randomness":1,"latencyMs":6.0,"iops":666},{"outstandingIos":8,"ioSizeKb":4,"readShare":1,"randomness":1,"latencyMs":8.4,"iops":952},{"outstandingIos":16,"ioSizeKb":4,"readShare":1,"randomness":1,"latencyMs":12.6,"iops":1269},{"outstandingIos":32,"ioSizeKb":4,"readShare":1,"randomness":1,"latencyMs":20.5,"iops":1560}]',
  NULL, CURRENT_TIMESTAMP),
 ('sata-raid6', 'pesto', 'injector', TRUE, 0.954, 5, '{"m":1.9,"C":7.5,"peak_iops":526.3,"run_r2":0.954}',
  '[{"outstandingIos":2,"ioSizeKb":4,"readShare":1,"randomness":1,"latencyMs":11.0,"iops":181},{"outstandingIos":4,"ioSizeKb":4,"readShare":1,"randomness":1,"latencyMs":15.9,"iops":251},{"outstandingIos":8,"ioSizeKb":4,"readShare":1,"randomness":1,"latencyMs":22.1,"iops":361},{"outstandingIos":16,"ioSizeKb":4,"readShare":1,"randomness":1,"latencyMs":38.0,"iops":421},{"outstandingIos":32,"ioSizeKb":4,"readShare":1,"randomness":1,"latencyMs":69.4,"iops":461}]',
  NULL, CURRENT_TIMESTAMP);
INSERT INTO recommendation (cluster_moid, vm_moid, disk_key, source_datastore, destination_datastore, reason_code, benefit, cost, confidence, state, created_at) VALUES
 ('group-p1', 'vm-43', 2000, 'datastore-13', 'datastore-11', 'balanceDatastoreIOLoad', 412.5, 96.0, 0.93, 'pending', CURRENT_TIMESTAMP),
 ('group-p1', 'vm-41', NULL, 'datastore-12', 'datastore-13', 'balanceDatastoreSpaceUsage', 120.0, 40.0, 0.88, 'applied', DATEADD('HOUR', -20, CURRENT_TIMESTAMP));
INSERT INTO action_history (cluster_moid, action, detail, recommendation_id, occurred_at) VALUES
 ('group-p1', 'migrationCompleted', 'db-01 moved fc15k-raid10 → sata-raid6 (RelocateVM_Task task-77)', 2, DATEADD('HOUR', -19, CURRENT_TIMESTAMP)),
 ('group-p1', 'runCompleted', 'scheduled run: 2 recommendations', NULL, DATEADD('HOUR', -20, CURRENT_TIMESTAMP));
INSERT INTO fault (cluster_moid, subject, reason, created_at) VALUES
 ('group-p1', 'mail-01 disk 2000', 'Insufficient disk space on datastore ''ssd-01''.', DATEADD('HOUR', -3, CURRENT_TIMESTAMP));
