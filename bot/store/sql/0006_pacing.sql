-- Pacing shared by several processes (0005_pacing.postgresql.sql): one row per flow of
-- sends (a Telegram group: about 20 messages a minute, whichever process sends), holding
-- the flow's theoretical arrival time (GCRA: the time by which every send reserved so far
-- is paid for, unix time). SQLite has one process, the only sender: it paces in memory,
-- and keeps this table only so that both databases have the same schema.
CREATE TABLE pacing (
    name  TEXT PRIMARY KEY,
    tat   DOUBLE PRECISION NOT NULL
);
