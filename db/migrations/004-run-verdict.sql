-- Version 4: what the nightly said of a run, 'clean' or 'regressed', so
-- that a night that regressed is never the next night's baseline (the
-- regression would otherwise be forgotten by the next good night).
ALTER TABLE runs ADD COLUMN verdict TEXT CHECK (verdict IN ('clean', 'regressed'));
