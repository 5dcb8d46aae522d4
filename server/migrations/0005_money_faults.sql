-- What each entry buys (record keys, or `result|<request key>`): the items the machine's
-- possibly-bought rule reads under the team's lock. Entries written before carry none.
ALTER TABLE entries ADD COLUMN items text[] NOT NULL DEFAULT '{}';
CREATE INDEX entries_doubtful ON entries USING gin (items)
    WHERE state IN ('sent', 'possibly_charged');
-- A charged answer that was not JSON, kept with its text under its request's key, so it
-- answers that request again instead of being bought again.
ALTER TABLE results ADD COLUMN unreadable boolean NOT NULL DEFAULT false;
