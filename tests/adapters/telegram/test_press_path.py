"""The path of one press (issue 20): a Draw on the table message visits each concern of the
adapter once or so, and calls the service through ``bot.ui.press`` (``bench/press_path.py``)."""

from __future__ import annotations

from bench.press_path import comebacks, trace_draw


async def test_a_draw_goes_through_press_once_and_seldom_comes_back() -> None:
    walks = await trace_draw()
    handler = next(w for w in walks.walks() if "adapters.telegram.inbound.presses" in w)
    # the press reaches the service through bot.ui.press, once, and the move is played
    assert handler.count("bot.ui.press") == 1
    assert "bot.service.play" in handler and "engine.play.drawing" in handler
    # the handlers' shared front is not on the way, nor a table read before the service's
    assert "adapters.telegram.inbound.front" not in handler
    first_service = handler.index("bot.service.facade")
    assert handler[first_service - 1] == "bot.ui.press"
    # (25 when this was written; 31 before the press was answered from its Result)
    assert comebacks(handler) <= 27, comebacks(handler)
    # the press is answered (replies) and its table edit goes out through the outbox
    assert "adapters.telegram.outbound.replies" in handler
    assert any("adapters.telegram.outbound.table" in w for w in walks.walks() if w is not handler)
