# uno-bot: slim Python 3.11, a non-root user, the database on a volume.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    UNO_DB=/data/uno.sqlite3

WORKDIR /app

# the project and its dependencies (a wheel install: the catalogues and migrations are
# package data, found beside the code in site-packages)
COPY pyproject.toml README.md LICENSE ./
COPY engine ./engine
COPY bot ./bot
COPY adapters ./adapters
COPY locales ./locales
RUN pip install . \
    && useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin uno \
    && mkdir -p /data \
    && chown uno:uno /data

USER uno
VOLUME ["/data"]

# tokens come from the environment (UNO_TELEGRAM_TOKEN, UNO_DISCORD_TOKEN) or an env file
CMD ["uno-bot", "run"]
