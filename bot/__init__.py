"""The running bot: table service, storage, timers, rendering, AI seats, config, CLI."""

__version__ = "0.1.0"
