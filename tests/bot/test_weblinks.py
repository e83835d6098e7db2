"""The web table's signed links (``bot.weblinks``): a table token names its table only, a
player token its player, table and game until it expires; nothing else passes."""

from __future__ import annotations

from bot.weblinks import MAC_CHARS, Links, links_for
from tests.bot.helpers import settings

SECRET = "a-test-secret-of-the-web-table"


def test_a_table_token_reads_back_and_nothing_else_does() -> None:
    links = Links(SECRET, "https://uno.example")
    token = links.table_token("tg:-1001234567890:45")
    assert token.replace("-", "").replace("_", "").isalnum()
    assert links.read_table(token) == "tg:-1001234567890:45"
    other = Links("another-secret-of-16+", "https://uno.example")
    assert other.read_table(token) is None
    forged = other.table_token("tg:-1")
    assert links.read_table(token[:-MAC_CHARS] + forged[-MAC_CHARS:]) is None
    assert links.read_table(token + "A") is None
    assert links.read_table(None) is None and links.read_table("") is None
    # a player token is no table token, and the other way round
    player = links.player_token("tg:-1", "tg:5", 1000.0)
    assert links.read_table(player) is None and links.read_player(token) is None


def test_a_player_token_names_its_game_and_expires() -> None:
    now = [1_800_000_000.0]
    links = Links(SECRET, clock=lambda: now[0])
    token = links.player_token("dc:100", "dc:7", 1_799_999_000.123)
    found = links.read_player(token)
    assert found is not None
    assert (found.key, found.player) == ("dc:100", "dc:7")
    assert Links.same_game(found, 1_799_999_000.123)
    assert not Links.same_game(found, 1_799_999_001.0)
    assert 4 * 3600 <= found.expires - now[0] < 4 * 3600 + 900
    assert links.player_token("dc:100", "dc:7", 1_799_999_000.123) == token  # same quarter
    now[0] = found.expires
    assert links.read_player(token) is None
    assert links.read_player(token, expired=True) == found


def test_links_only_with_an_address_and_a_secret() -> None:
    assert links_for(settings()) is None
    assert links_for(settings(web_url="https://uno.example/")) is None
    links = links_for(settings(web_url="https://uno.example/", web_secret=SECRET))
    assert links is not None
    assert links.page_url(player="abc") == "https://uno.example/#p=abc"
    assert links.mini_app_url("xyz") == "https://uno.example/tg/?t=xyz"
    assert Links.telegram_link("unobot", "table", "xyz") == (
        "https://t.me/unobot/table?startapp=xyz"
    )
