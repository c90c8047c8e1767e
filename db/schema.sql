-- rmapbench schema, version 1. Later versions are db/migrations/NNN-*.sql,
-- applied in order; PRAGMA user_version holds the version a file is at.

-- One run: who, what and where, and how it ended.
CREATE TABLE runs (
    id                 INTEGER PRIMARY KEY,
    revision           TEXT NOT NULL,    -- rmapbench git revision
    host               TEXT NOT NULL,
    kernel_release     TEXT,
    kernel_config_hash TEXT,             -- NULL when the config is not readable
    target             TEXT NOT NULL,    -- host | vm | engine
    variant            TEXT,             -- the engine's rmap design (a vm run's kernel: kernel_label, version 5)
    config_name        TEXT NOT NULL,
    config_text        TEXT NOT NULL,
    started_at         TEXT NOT NULL,
    ended_at           TEXT,
    status             TEXT NOT NULL CHECK (status IN ('running', 'done', 'aborted', 'failed')),
    pid                INTEGER,          -- to tell a live run from a killed one
    pid_start          TEXT
);

-- One point of the matrix: workload x users x repetition.
CREATE TABLE points (
    id          INTEGER PRIMARY KEY,
    run_id      INTEGER NOT NULL REFERENCES runs(id),
    seq         INTEGER NOT NULL,
    workload    TEXT NOT NULL,
    users       INTEGER NOT NULL,
    repetition  INTEGER NOT NULL,
    params      TEXT NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('done', 'failed', 'aborted')),
    error       TEXT,
    started_at  TEXT NOT NULL,
    ended_at    TEXT NOT NULL
);

-- Tidy results: one row per (run, point, repetition, metric, value, unit).
CREATE TABLE results (
    run_id      INTEGER NOT NULL REFERENCES runs(id),
    point_id    INTEGER NOT NULL REFERENCES points(id),
    repetition  INTEGER NOT NULL,
    metric      TEXT NOT NULL,
    value       REAL NOT NULL,
    unit        TEXT NOT NULL
);

-- Metrics that could not be measured, and why. Never a zero in results.
CREATE TABLE unavailable (
    run_id      INTEGER NOT NULL REFERENCES runs(id),
    point_id    INTEGER NOT NULL REFERENCES points(id),
    metric      TEXT NOT NULL,
    reason      TEXT NOT NULL
);

CREATE INDEX results_by_run ON results(run_id, metric);
CREATE INDEX points_by_run ON points(run_id, workload, users);
CREATE INDEX unavailable_by_run ON unavailable(run_id, metric);
