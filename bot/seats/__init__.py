"""Bot seats: the strategies that play them (``strategies``) and whole games between them
(``simulate``, ``uno-bot simulate``)."""
