-- Scheduled tracking: a member's request bought again on schedule, each run kept (its answer
-- is the history position changes and trends are read from).
CREATE TABLE schedules (
    id          bigserial PRIMARY KEY,
    member_id   bigint NOT NULL REFERENCES members (id),
    operation   text NOT NULL,
    body        text NOT NULL,                 -- the request, its key left empty
    every       text NOT NULL CHECK (every IN ('day', 'week')),
    next_at     bigint NOT NULL,
    created_at  bigint NOT NULL
);
CREATE INDEX schedules_due ON schedules (next_at);

CREATE TABLE schedule_runs (
    id           bigserial PRIMARY KEY,
    schedule_id  bigint NOT NULL REFERENCES schedules (id),
    at           bigint NOT NULL,
    status       integer NOT NULL,             -- 200, or the refusal's (402 over a cap, …)
    cost_micros  bigint NOT NULL,
    body         text                          -- the answer (NULL when refused)
);
CREATE INDEX schedule_runs_of ON schedule_runs (schedule_id, at);
