-- Issue 14, the places rule: each person's places, summed, over the rounds they were placed
-- in (their average place is places_total / rounds_placed).
ALTER TABLE stats ADD COLUMN rounds_placed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE stats ADD COLUMN places_total INTEGER NOT NULL DEFAULT 0;
