"""The lobby and the table's membership as pure step builders: ``build(table, ..., ctx) ->
Step`` (or ``Refused``): open a table (``create``), sit down (``join``), add a bot seat,
leave or be kicked (``remove``), change the rules (``configure``), deal (``start``), end it
(``stop``). Nothing here touches the store or the port."""

from __future__ import annotations

from typing import Any

import engine
from bot import policy, presence
from bot.model import LOBBY, PLAYING, Table
from bot.port import Notice
from bot.service.play import after_membership, apply, stopped
from bot.service.steps import (
    Ctx,
    Refused,
    Step,
    host_or_admin,
    open_table,
    record,
    seat,
    setting_error,
    touch,
    who,
)
from bot.service.windows import arm
from bot.store import ChatUpdate
from engine import IllegalAction, Leave, Rules, redact
from engine.rules import check_seating, max_seats


def create(
    t: Table | None,
    key: str,
    scope: str,
    host: str,
    host_name: str,
    ctx: Ctx,
    *,
    preset: str,
    overrides: dict[str, Any],
    lang: str | None,
    seat_host: bool = True,
    bad: dict[str, Any] | None = None,
) -> Step:
    """A lobby at ``key`` hosted by ``host`` (refused if a table is open there; ``bad``:
    why the rules asked for were refused)."""
    if t is not None and policy.is_open(t):
        raise Refused("table_exists")
    if bad is not None:
        raise Refused("bad_setting", **bad)
    nt = Table(
        key=key,
        scope=scope,
        host=host,
        status=LOBBY,
        version=(t.version + 1) if t else 1,
        turn_version=(t.version + 1) if t else 1,
        game_no=(t.game_no if t else 0),
        seats=(seat(host, host_name),) if seat_host else (),
        preset=preset,
        overrides=overrides,
        lang=lang,
        seed=ctx.rng.getrandbits(63),
        meta={},
        created=ctx.now,
        updated=ctx.now,
        shown=t.shown if t else 0,  # the key's versions go on: so does what was shown
    )
    return Step(arm(nt, ctx))


def count(t: Table) -> int:
    """The players a table has or will have (seated in the lobby; dealt in, or waiting)."""
    if t.status == LOBBY:
        return len(t.seats)
    g = t.game
    return (len(g.players) if g is not None else 0) + len(t.waiting)


def next_round_ahead(t: Table) -> None:
    """Sitting down mid-game is for the next round: refused when there is none (a game of
    a single round, ``target`` 0; whether a game ends at this round is known only then)."""
    if t.status == PLAYING and t.rules.target == 0:
        raise Refused("no_next_round")


def join(t: Table | None, player: str, name: str, ctx: Ctx) -> Step:
    """Sit down: in the lobby, or (mid-game) for the next round."""
    t = open_table(t)
    g = t.game
    seated = t.seat(player) is not None and (
        t.status == LOBBY or player in t.waiting or (g is not None and player in g.players)
    )
    if seated:
        raise Refused("already_joined")
    next_round_ahead(t)
    if count(t) >= max_seats(t.rules):
        raise Refused("table_full")
    if t.status == PLAYING and t.rules.partners:
        raise Refused("teams_fixed")
    if t.seat(player) is not None:  # coming back: same place, refreshed name
        seats = tuple(seat(player, name) if s.id == player else s for s in t.seats)
    else:
        seats = (*t.seats, seat(player, name))
    if t.status == LOBBY:
        return Step(touch(t, ctx, seats=seats))
    acted = presence.acted(t, player, ctx.now)
    step = Step(touch(t, ctx, seats=seats, waiting=(*t.waiting, player), acted=acted))
    step.tells.append((player, Notice("info.next_round")))
    return step


def add_bot(t: Table | None, by: str, strategy: str, ctx: Ctx, *, admin: bool) -> Step:
    """A bot seat (host or admin; lobby, or for the next round)."""
    t = open_table(t)
    host_or_admin(t, by, admin)
    next_round_ahead(t)
    if count(t) >= max_seats(t.rules):
        raise Refused("table_full")
    if t.status == PLAYING and t.rules.partners:
        raise Refused("teams_fixed")
    used = {s.id for s in t.seats}
    # numbered after every bot seat, also those named by the key a table had before it
    # moved (see ``Service.move_scope``): "b2" names one seat only
    taken = {s.id.rpartition(":")[2] for s in t.seats if s.bot is not None}
    n = 1
    while f"bot:{t.key}:{n}" in used or str(n) in taken:
        n += 1
    new = seat(f"bot:{t.key}:{n}", f"Bot {n}", strategy)
    if t.status == LOBBY:
        return Step(touch(t, ctx, seats=(*t.seats, new)))
    return Step(touch(t, ctx, seats=(*t.seats, new), waiting=(*t.waiting, new.id)))


def remove(t: Table | None, by: str, target: str, ctx: Ctx, *, admin: bool) -> Step:
    """``target`` leaves (``by`` themselves) or is removed by ``by`` (host or admin)."""
    t = open_table(t)
    if by != target:
        host_or_admin(t, by, admin)
    s = t.seat(target)
    g = t.game
    in_game = g is not None and t.status == PLAYING and target in g.players
    if s is None or (t.status == PLAYING and not in_game and target not in t.waiting):
        raise Refused("not_seated")
    notice = Notice("info.left" if by == target else "info.kicked", who(t, target))
    if t.status == LOBBY or not in_game:
        seats = tuple(x for x in t.seats if x.id != target)
        waiting = tuple(p for p in t.waiting if p != target)
        nt = touch(t, ctx, seats=seats if t.status == LOBBY else t.seats, waiting=waiting)
        step = Step(nt)
        step.notices.append(notice)
        return after_membership(step, ctx)
    step = Step(t)
    apply(step, target, Leave(), ctx, source="kick" if by != target else "player")
    step.notices.append(notice)
    return after_membership(step, ctx)


def configure(
    t: Table | None,
    by: str,
    ctx: Ctx,
    *,
    preset: str | None = None,
    overrides: dict[str, Any] | None = None,
    admin: bool = False,
) -> Step:
    """The table's rules changed: a preset, and/or flags (``overrides`` merged in; a flag
    set to its preset value is dropped). Lobby, or between rounds; host or admin."""
    t = open_table(t)
    host_or_admin(t, by, admin)
    g = t.game
    if not policy.may_configure(t):
        raise Refused("not_mid_round")
    new_preset = preset or t.preset
    over = dict(t.overrides) if preset is None else {}
    over.update(overrides or {})
    try:
        rules = Rules.preset(new_preset, **over)
    except ValueError as e:
        raise Refused("bad_setting", **setting_error(e)) from None
    base = Rules.preset(new_preset)
    over = {
        k: v for k, v in rules.model_dump(mode="json").items()
        if getattr(base, k) != getattr(rules, k)
    }  # fmt: skip
    if count(t) > max_seats(rules):
        raise Refused("table_full")
    changes: dict[str, Any] = {"preset": new_preset, "overrides": over}
    if g is not None and t.status == PLAYING:
        try:
            check_seating(len(g.players), rules, before=g.rules)
            changes["game"] = engine.set_rules(g, rules)
        except (IllegalAction, ValueError) as e:
            raise Refused("bad_setting", **setting_error(e)) from None
    step = Step(touch(t, ctx, **changes))
    if "game" in changes:  # the game's rules changed: the log must say so
        step.actions.append(
            record(step.table, by, {"type": "Rules", "rules": rules.to_json_dict()}, ctx)
        )
    step.chat.append(ChatUpdate(t.scope, preset=new_preset, overrides=over))
    return step


def start(t: Table | None, by: str, ctx: Ctx, *, admin: bool = False) -> Step:
    """Deal: the lobby's seats (2 to 10 per deck) become a game."""
    t = open_table(t)
    if t.status != LOBBY:
        raise Refused("already_started")
    host_or_admin(t, by, admin)
    rules = t.rules
    ids = [s.id for s in t.seats]
    if len(ids) < 2:
        raise Refused("not_enough_players")
    if len(ids) > max_seats(rules):
        raise Refused("table_full")
    try:
        check_seating(len(ids), rules)
        g, events = engine.new_game_events(ids, rules, seed=t.seed)
    except ValueError as e:
        raise Refused("bad_setting", **setting_error(e)) from None
    nt = touch(
        t, ctx, status=PLAYING, game=g, game_no=t.game_no + 1, played={}, strikes={},
        # everyone dealt in is at the table now (``bot.presence``)
        autopilot=(), asked=(), vote=None,
        acted={s.id: ctx.now for s in t.seats if s.bot is None},
    )  # fmt: skip
    nt.turn_version = nt.version
    step = Step(nt, events=list(events))
    step.moves.append((by, None, [redact(e, None) for e in events]))
    # what ``engine.new_game`` needs, so that the log alone replays the game
    begin = {"type": "Start", "players": ids, "rules": rules.to_json_dict()}
    step.actions.append(record(nt, by, {**begin, "seed": t.seed}, ctx))
    step.table = arm(nt, ctx)
    return step


def stop(t: Table | None, by: str, ctx: Ctx, *, admin: bool = False) -> Step:
    """The table ends now (host or admin); scores are not counted (``play.stopped``)."""
    t = open_table(t)
    host_or_admin(t, by, admin)
    return stopped(Step(t), Notice("info.stopped", who(t, by)), ctx)
