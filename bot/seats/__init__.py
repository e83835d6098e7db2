"""Bot seats: the strategies that play them (``strategies``) and whole games between them
(``simulate``, ``uno-bot simulate``)."""

# the expert seat registers its search with the strategies (``strategies.SEARCHERS``)
from bot.seats import expert as _expert  # noqa: F401
