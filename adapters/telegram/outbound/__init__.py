"""What goes out to Telegram: the service's port calls and the handlers' answers, drawn
with ``adapters.telegram.widgets`` and sent through the paced outbox.

- ``table``: each table's public message and the announcements (news);
- ``hands``: the private hand messages; ``menus``: the settings, language and kick menus;
- ``replies``: refusals, notices, replies and every send and edit to people;
- ``unsent``: replies owed after a crash; ``stickers``: the card set as the bot's sticker
  sets.
"""
