-- Several processes on one database (PostgreSQL, 0004_shared.postgresql.sql: the same, and
-- its storage tuned for rows rewritten at every move; SQLite has it all, one process).
-- Each table row's revision: every write of the row raises it, and a change is committed
-- only on the revision it was built on (a process whose copy is older reloads it).
ALTER TABLE tables ADD COLUMN rev INTEGER NOT NULL DEFAULT 1;
-- A due deadline is claimed by the process that fires it (claimed_by, a process id) until
-- claim_until (unix time; infinite: it fired and changed nothing, kept until the table arms
-- another). An overdue deadline nobody holds is any process's to fire (a dead one's).
ALTER TABLE deadlines ADD COLUMN claimed_by TEXT;
ALTER TABLE deadlines ADD COLUMN claim_until DOUBLE PRECISION;
CREATE INDEX deadlines_due ON deadlines (due);
-- Named leases: one holder at a time until the lease runs out (elections, e.g. a poller).
CREATE TABLE leases (
    name    TEXT PRIMARY KEY,
    holder  TEXT NOT NULL,
    until   DOUBLE PRECISION NOT NULL
);
