"""Issue 9 item 2: ``house`` with stacking off is a table's natural choice. The service
accepts it (deflect stays on, with nothing to act on), and the rules text shows deflect and
a Wild on a penalty as inactive, naming the flag they need, in every language."""

from __future__ import annotations

from bot.port import RecordingPort
from bot.service import Service
from bot.store import SqliteStore
from bot.ui import render
from bot.ui.i18n import translator
from engine import Rules

BACKENDS = ("sqlite", "postgresql")

Env = tuple[Service, SqliteStore, RecordingPort]
KEY = "t:chat:1"
TRS = [translator(lang) for lang in ("en", "zh_Hans", "zh_Hant")]


async def test_the_house_preset_with_stacking_off_is_accepted(env: Env) -> None:
    svc, _, port = env
    assert (await svc.create(KEY, "chat", "u1", "Ann")).ok
    res = await svc.configure(KEY, "u1", preset="house", overrides={"stacking": "off"})
    assert res.ok and res.table is not None, res.code
    assert (res.table.rules.stacking, res.table.rules.deflect) == ("off", "draw_two")  # True
    assert not res.told and not port.of("tell")
    # and back on: deflect acts again, nothing had to be set twice
    res = await svc.configure(KEY, "u1", overrides={"stacking": "draw_two"})
    assert res.ok and res.table is not None and res.table.rules.deflect
    # a flag that needs stacking, turned on while stacking is off, is accepted too
    res = await svc.configure(KEY, "u1", preset="official", overrides={"wild_on_penalty": True})
    assert res.ok and res.table is not None and res.table.rules.wild_on_penalty


def test_the_rules_text_marks_flags_with_nothing_to_act_on() -> None:
    rules = Rules.preset("house", stacking="off", wild_on_penalty=True)
    for tr in TRS:
        text = render.rules_summary(rules, tr)
        note = render.inactive_note("deflect", rules, tr)
        assert note and render.flag_name("stacking", tr) in note
        lines = set(text.splitlines())
        for flag in ("deflect", "wild_on_penalty"):
            on = render.flag_value(flag, True, tr)
            assert any(render.flag_name(flag, tr) in x and x.endswith(on + note) for x in lines)
        # with stacking on, nothing is marked
        active = render.rules_summary(Rules.preset("house", wild_on_penalty=True), tr)
        assert note not in active
    en = render.rules_summary(rules, translator("en"))
    assert "• Deflect a +2: on (needs “Stacking”)" in en.splitlines()
