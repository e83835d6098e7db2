"""For every adapter test: the card set's pictures are drawn once per test session.

An upload draws every picture of the set (126 of them, tens of milliseconds each); the
drawing is a pure function of the picture (``bot.ui.card_set.render``, tested in
``tests/bot/ui/test_card_faces.py``), so the tests keep what was drawn, and each upload costs
only its calls. The bot itself draws them afresh and keeps nothing: it uploads once."""

from __future__ import annotations

import functools
from collections.abc import Iterator

import pytest

from bot.ui import card_set as cards


@pytest.fixture(scope="session", autouse=True)
def _pictures_drawn_once() -> Iterator[None]:
    drawn = cards.render
    cards.render = functools.cache(drawn)  # type: ignore[assignment]
    try:
        yield
    finally:
        cards.render = drawn  # type: ignore[method-assign,assignment]
