-- Issue 22, no dead tables (bot/presence.py): who is at a table, as a JSON object kept with
-- the row: "autopilot" (the people whose seat a bot plays: they timed out under
-- absent=autopilot, or asked for it: "asked"), "acted" (when each person last pressed something the
-- table took: who counts in a vote), "vote" (the open vote to end the game: the version it
-- opened at "v", open "until", voted "by"). '{}' while there is none of it.
ALTER TABLE tables ADD COLUMN presence TEXT NOT NULL DEFAULT '{}';
