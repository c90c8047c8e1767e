-- Version 3: runs that can travel and be compared night to night.
--  uuid         a stable unique id, the same in every database a run is
--               merged into (db merge never duplicates a run);
--  fingerprint  the machine by facts that do not drift between boots:
--               CPU model, cores, RAM, host kernel;
--  tag          'nightly' for the runs the nightly makes (its baselines
--               are found among them);
--  baselines    a pinned baseline per suite and machine (baseline set).
ALTER TABLE runs ADD COLUMN uuid TEXT;
ALTER TABLE runs ADD COLUMN fingerprint TEXT;
ALTER TABLE runs ADD COLUMN tag TEXT;
UPDATE runs SET uuid = lower(hex(randomblob(16))) WHERE uuid IS NULL;
CREATE UNIQUE INDEX runs_uuid ON runs(uuid);
CREATE TABLE baselines (
    suite       TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    run_uuid    TEXT NOT NULL,
    set_at      TEXT NOT NULL,
    PRIMARY KEY (suite, fingerprint)
);
