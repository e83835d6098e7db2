-- The last public lines of each table message (events redacted for nobody, and the
-- notices shown on the table): JSON [{s: status, e: event} | {s: status, n: code, p: params}].
ALTER TABLE tables ADD COLUMN recent TEXT NOT NULL DEFAULT '[]';
