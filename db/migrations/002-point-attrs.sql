-- Version 2: facts about a point that are not measurements (the stress-ng
-- version beside it, the limits it ran under, the cgroup it had), and a
-- note on a run (why it failed or was aborted).
CREATE TABLE point_attrs (
    point_id    INTEGER NOT NULL REFERENCES points(id),
    key         TEXT NOT NULL,
    value       TEXT NOT NULL,
    PRIMARY KEY (point_id, key)
);
ALTER TABLE runs ADD COLUMN note TEXT;
