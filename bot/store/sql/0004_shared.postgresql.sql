-- 0004_shared.sql for PostgreSQL: the same, and the storage of the rows every move rewrites.
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
-- Rows rewritten at every move: room on each page, so that an update stays on its page
-- (a HOT update, pruned as the page fills: no dead row waits for a vacuum), and a vacuum
-- as soon as a few thousand dead rows are there, not a fifth of the table.
ALTER TABLE tables SET (fillfactor = 50, autovacuum_vacuum_scale_factor = 0,
    autovacuum_vacuum_threshold = 2000, autovacuum_analyze_scale_factor = 0.05);
ALTER TABLE deadlines SET (fillfactor = 50, autovacuum_vacuum_scale_factor = 0,
    autovacuum_vacuum_threshold = 2000, autovacuum_analyze_scale_factor = 0.05);
