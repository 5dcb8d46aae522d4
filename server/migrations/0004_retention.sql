-- How long scheduled runs (each a whole answer, megabytes for a large domain) are kept: days,
-- NULL for ever. Applied by every serving process each hour and by `serpkit-server
-- retention --apply`.
ALTER TABLE team ADD COLUMN run_retention_days integer CHECK (run_retention_days > 0);
CREATE INDEX schedule_runs_at ON schedule_runs (at);
