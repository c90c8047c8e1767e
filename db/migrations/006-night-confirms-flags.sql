-- Version 6: a nightly people keep trusting.
--  runs.confirms  a run made to confirm a night's regression (tag
--                 'confirm'): the id of the night's run it re-ran, so the
--                 confirmation stays linked to the night it judged;
--  night_flags    every row a night's verdicts flagged, and what the
--                 confirmation made of it: 'regression' (it repeated, or
--                 was not re-run: a kernel error) or 'not confirmed'. A
--                 flagged night is never a baseline, and the trend page
--                 marks its flagged series.
ALTER TABLE runs ADD COLUMN confirms INTEGER;
CREATE TABLE night_flags (
    run_id      INTEGER NOT NULL REFERENCES runs(id),
    workload    TEXT NOT NULL,
    users       INTEGER NOT NULL,
    metric      TEXT NOT NULL,
    verdict     TEXT NOT NULL CHECK (verdict IN ('regression', 'not confirmed')),
    change      REAL
);
CREATE INDEX night_flags_by_run ON night_flags(run_id);
