-- What each table's platform has shown (Service.shown): the last version its table
-- message was seen at, its announcements included, and the announcements made since, one
-- JSON object per line: {"v": version, "n": code, "p": params}. A restart shows again
-- what a crash kept from being shown.
ALTER TABLE tables ADD COLUMN shown INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tables ADD COLUMN pending TEXT NOT NULL DEFAULT '';
-- tables from before were shown, as far as anyone can tell
UPDATE tables SET shown = version;
