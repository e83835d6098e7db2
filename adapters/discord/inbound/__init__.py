"""What comes in from Discord: components pressed (``presses``), the ``/uno`` commands
(``commands``)."""
