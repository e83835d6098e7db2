"""What comes in from Telegram: updates -> intents -> table-service calls.

- ``handlers``: registers every handler on PTB's application, answers what fails;
- ``presses``: the inline buttons (one ``CallbackQueryHandler`` per kind of intent, its
  pattern the decoded intent), ``commands``: typed commands, ``inline``: inline queries
  and chosen results; they see the adapter as a ``front.Front`` and never import it;
- ``legacy``: the buttons posted before the intent codec, read into the same intents;
- ``ordering``: one user's updates in order; ``polling``: who polls (the polling lease).
"""
