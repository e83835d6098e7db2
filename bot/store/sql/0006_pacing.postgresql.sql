-- 0005_pacing.sql for PostgreSQL, where several processes share the flows: one row per
-- flow of sends (a Telegram group: about 20 messages a minute, whichever process sends),
-- holding its theoretical arrival time (GCRA, unix time), reserved in one statement per
-- send (bot.pgstore.PostgresStore.pace). Unlogged: the rows are rewritten at every send
-- and worth nothing after a crash of the server (it empties the table: each flow may
-- start with a burst again), so they cost no WAL; room on each page keeps the updates in
-- place, and a vacuum comes every few thousand dead rows.
CREATE UNLOGGED TABLE pacing (
    name  TEXT PRIMARY KEY,
    tat   DOUBLE PRECISION NOT NULL
) WITH (fillfactor = 50, autovacuum_vacuum_scale_factor = 0,
    autovacuum_vacuum_threshold = 2000);
