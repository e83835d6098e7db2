"""Telegram: UNO in groups and forum topics, on python-telegram-bot 22.

- ``adapter``: the :class:`Adapter` (a :class:`bot.port.Port` for ``tg:`` tables) and PTB's
  life cycle, run by hand in the caller's event loop (polling, or a webhook when
  ``UNO_TELEGRAM_WEBHOOK_URL`` is set; ``UNO_TELEGRAM_API_URL`` points at another Bot API
  server); it wires the parts below, which share a ``common.Wire``;
- ``inbound``: updates -> intents -> service calls: ``handlers`` registers them,
  ``presses`` (one handler per kind of intent, each a typed function; every change through
  ``bot.ui.press.press``), ``commands``, ``inline`` (queries and chosen results); they see the
  adapter as a ``front.Front`` and never import it (no import circle: import-linter);
  ``legacy`` reads the buttons posted before the intent codec, ``ordering`` keeps one
  user's updates in order, ``polling`` holds the polling lease;
- ``outbound``: ``table`` (each table's message, the announcements, the shared-store
  path), ``hands`` (private hands), ``menus`` (settings, languages, ``/cards``),
  ``replies`` (refusals, notices, every send and edit), ``unsent``, ``stickers`` (the card
  set as the bot's sticker sets for ``UNO_TELEGRAM_OWNER``, made once, resumed after a
  failure);
- ``widgets``: ``bot.ui.controls`` mapped to inline buttons whose ``callback_data`` is an
  intent of ``bot.ui.intents`` (64 bytes), and to inline results (``pictures``: as
  stickers); ``text``: the adapter's own words;
- ``ids``: table keys and ids, inline result ids, deep links (64 bytes, versioned,
  stateless; players named by user id or bot seat number, never by seat index);
- ``outbox``: per-chat pacing under Telegram's flood limits, coalesced edits, 429s;
  ``chats`` (languages, admins, unreachable private chats), ``moves`` (a group become a
  supergroup).

With @BotFather: enable inline mode (``/setinline``) and inline feedback
(``/setinlinefeedback``, 100%): a card chosen from inline results reaches the bot as a
``chosen_inline_result`` only with feedback on. A chosen result posts a neutral 🎴 (the
table message shows the move), or with the card stickers made a playable card's sticker;
the bot sees that message even in privacy mode, and replies to it with a refusal when the
player's private chat is closed.
"""

import os

# PTB 22 returns time periods (``RetryAfter.retry_after``) as timedelta when asked to, and
# warns otherwise; this adapter handles both, so take the future behaviour now.
os.environ.setdefault("PTB_TIMEDELTA", "true")

from adapters.telegram.adapter import Adapter, ReplyTo
from adapters.telegram.outbox import Limits

__all__ = ["Adapter", "Limits", "ReplyTo"]
