"""The table service: the one path every action takes (ARCHITECTURE.md).

1. An adapter calls a method with ``(table_key, player, action, seen_version)``.
2. Under the table's lock the service checks the version, asks the engine, and builds
   the new table.
3. The new state, the action and the re-armed timers are committed to the store in one
   transaction (``Store.write``) before anything is shown.
4. Then the port shows it: the public table, private hands, announcements.
Timers and bot seats come in through the same path.

Several processes may share one database (PostgreSQL: ``Store.shared``). The lock above is
then this process's only; across processes the store's is the one that counts: a change
is committed only on the stored revision of the table it was built on (``Table.rev``, the
``expect`` of its batch, checked under the database's lock on the table). A process whose
copy was older gets ``Stale``, reloads the table and decides again (a refusal, or a
deadline that changes nothing, is decided again on the stored table too before it is
told). Reads (``table``, ``hand``, ``legal``) check the copy's revision first. A due
deadline fires where it is claimed (``Store.claim``): one process fires each; every second
each process also looks for deadlines overdue that nobody holds (a dead process's) and
fires those. Nothing lives only in one process's memory: what it keeps is a cache.

The action log (``actions``) alone rebuilds every game: ``Start`` records the players, the
rules and the seed (``engine.new_game``), ``Join`` a player dealt in between rounds
(``engine.join``), ``Rules`` a change of rules between rounds (``engine.set_rules``);
every other record is an engine action (``bot.json_codec``) applied by its ``player``, timeouts
and bot moves included. Each record carries the table version it produced.

The package, one module per concern: ``facade`` (``Service``, the one face), ``runner``
(``_run``: lock, build, commit, show; ``Tries``, the one stale-retry loop), ``cache`` (the
tables held and their locks), ``lobby`` and ``play`` (pure step builders, ``build(table,
..., ctx) -> Step``), ``windows`` (a window's length, arming deadlines), ``deadlines``
(firing, claiming, polling), ``chats`` (languages, moving a chat, adapter data), ``shown``
(what was shown), ``steps`` (``Step``, ``Result``, ``Refused``, ``Ctx``).
"""

from bot.service.facade import Service
from bot.service.steps import (
    BEHIND_SECONDS,
    CLAIM_SECONDS,
    GLOBAL,
    LATE_SECONDS,
    OVERDUE_SECONDS,
    PENDING,
    POLL_SECONDS,
    RECENT,
    STALE_TRIES,
    Refused,
    Result,
    Step,
)

__all__ = [
    "BEHIND_SECONDS",
    "CLAIM_SECONDS",
    "GLOBAL",
    "LATE_SECONDS",
    "OVERDUE_SECONDS",
    "PENDING",
    "POLL_SECONDS",
    "RECENT",
    "STALE_TRIES",
    "Refused",
    "Result",
    "Service",
    "Step",
]
