-- The team server's schema. Money is integer micro-dollars (serpkit::Usd), times are
-- milliseconds since the Unix epoch (serpkit::machine::Ms), states and periods are the
-- machine's stable names (EntryState::as_str, Period::as_str).

-- The team's one budget: one row, locked (FOR UPDATE) by every write-ahead so the cap check
-- and the entry it admits are one step across every server process.
CREATE TABLE team (
    id          integer PRIMARY KEY CHECK (id = 1),
    cap_micros  bigint CHECK (cap_micros >= 0),          -- NULL: no cap
    period      text NOT NULL DEFAULT 'month' CHECK (period IN ('day', 'month', 'until_reset')),
    reset_at    bigint NOT NULL DEFAULT 0
);
INSERT INTO team (id) VALUES (1);

CREATE TABLE members (
    id          bigserial PRIMARY KEY,
    name        text NOT NULL UNIQUE,
    token_hash  bytea NOT NULL,                          -- sha256 of the whole token
    cap_micros  bigint CHECK (cap_micros >= 0),          -- NULL: no cap of its own
    created_at  bigint NOT NULL,
    revoked_at  bigint                                   -- NULL: active
);

-- Server processes alive hold a session advisory lock on their id; an entry `sent` by a
-- process whose lock is free was cut off mid-call (SIGKILL, crash) and is possibly charged.
CREATE TABLE entries (
    id              bigserial PRIMARY KEY,
    member_id       bigint NOT NULL REFERENCES members (id),
    operation       text NOT NULL,
    request_key     text NOT NULL,
    estimate_micros bigint NOT NULL CHECK (estimate_micros >= 0),
    charge_micros   bigint NOT NULL DEFAULT 0,
    possible_micros bigint NOT NULL DEFAULT 0,
    state           text NOT NULL CHECK (state IN ('sent', 'charged', 'not_charged', 'possibly_charged')),
    status          integer,                              -- the service's HTTP status, if any
    owner           bigint NOT NULL,                      -- the server process that sent it
    at              bigint NOT NULL,
    settled_at      bigint
);
CREATE INDEX entries_sent ON entries (owner) WHERE state = 'sent';
CREATE INDEX entries_at ON entries (at);
CREATE INDEX entries_member ON entries (member_id, at);

-- Records priced per item, keyed as serpkit::records keys them (source|kind|...|item).
CREATE TABLE records (
    key         text PRIMARY KEY,
    json        text NOT NULL,
    bought_at   bigint NOT NULL,
    entry_id    bigint NOT NULL REFERENCES entries (id)
);

-- Results of operations priced per request, keyed by serpkit::records::request_key.
CREATE TABLE results (
    request_key text PRIMARY KEY,
    body        text NOT NULL,
    bought_at   bigint NOT NULL,
    entry_id    bigint NOT NULL REFERENCES entries (id)
);

-- What is being bought right now: a record key or `result|<request key>`. The primary key is
-- the reservation: a second buyer's INSERT … ON CONFLICT DO NOTHING inserts nothing and waits.
CREATE TABLE reservations (
    key         text PRIMARY KEY,
    entry_id    bigint NOT NULL REFERENCES entries (id)
);
CREATE INDEX reservations_entry ON reservations (entry_id);
