-- The team's records as a feed (GET /team/records): each row carries the transaction that
-- last wrote it. A reader takes only transactions older than every one still running
-- (pg_snapshot_xmin), so a later page never holds a row an earlier page should have had,
-- whatever order concurrent settles commit in.
ALTER TABLE records ADD COLUMN xid xid8 NOT NULL DEFAULT pg_current_xact_id();
CREATE INDEX records_xid ON records (xid);
