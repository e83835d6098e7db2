-- Issue 19: how a person wants their cards shown where the platform has pictures of them
-- (Telegram's inline hand: stickers, or text articles that fill nobody's "recent
-- stickers"): 'pictures' or 'text', NULL for the default (pictures, as before). Per user,
-- on every table of every chat, as the language is.
ALTER TABLE user_settings ADD COLUMN cards TEXT;
