-- The card set as each platform has it (bot/cards.py): for a platform ('tg': Telegram
-- stickers, 'dc': Discord application emojis) and a version of the drawings
-- (bot/images.SET_VERSION), what each picture ('r5', 'r5_d' dimmed, 'w4r', 'back') was
-- uploaded as (a sticker's file id, an emoji's id). Written as each upload is made, so
-- one that failed part-way goes on from there; never uploaded twice.
CREATE TABLE card_assets (
    platform TEXT NOT NULL,
    version  INTEGER NOT NULL,
    name     TEXT NOT NULL,
    ref      TEXT NOT NULL,
    PRIMARY KEY (platform, version, name)
);
