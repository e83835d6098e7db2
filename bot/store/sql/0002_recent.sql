-- The last public lines of each table message (events redacted for nobody, and the
-- notices shown on the table), one JSON object per line:
-- {"s": status, "e": event} or {"s": status, "n": code, "p": params}.
ALTER TABLE tables ADD COLUMN recent TEXT NOT NULL DEFAULT '';
