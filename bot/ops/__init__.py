"""Running the bot: settings (``config``), logging (``logs``), Prometheus metrics
(``metrics``), ``/metrics`` and ``/healthz`` (``health``)."""
