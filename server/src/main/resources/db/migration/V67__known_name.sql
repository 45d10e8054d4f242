-- The last name the inventory read for each VM and datastore, kept after the object has left the
-- inventory (inventory/InventorySync): the history and the faults about a VM destroyed or a
-- datastore removed still name it as the vSphere Client did, not by its moid (migration/MoveDescriptions).
-- A vCenter never gives a moid to a second object.
CREATE TABLE known_name (
    moid VARCHAR(64)  NOT NULL PRIMARY KEY,
    name VARCHAR(255) NOT NULL
);
INSERT INTO known_name (moid, name) SELECT moid, name FROM vm;
INSERT INTO known_name (moid, name) SELECT moid, name FROM datastore;
