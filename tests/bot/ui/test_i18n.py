"""bot.ui.i18n: language codes, catalogues (complete, translated, up to date), translators."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po

from bot.ui import i18n
from bot.ui.i18n import DOMAINS, LANGUAGES, N_, Translator, resolve_lang, translator

ROOT = Path(__file__).resolve().parents[3]
LOCALES = ROOT / "locales"
POT = LOCALES / "messages.pot"
# every domain whose code exists (a platform's catalogue is needed once its folder is there)
LIVE = [d for d, folders in DOMAINS.items() if any((ROOT / f).is_dir() for f in folders)]
CHINESE = ("zh_Hans", "zh_Hant")
PLACEHOLDER = re.compile(r"\{(\w*)\}")


def _read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=locale)


def _po(lang: str, domain: str = "messages") -> Catalog:
    return _read(i18n.catalogue_path(lang, domain), lang)


def _key(message_id: str | tuple[str, ...], context: str | None) -> tuple[str | None, str]:
    return (context, message_id[0] if isinstance(message_id, tuple) else message_id)


def _ids(cat: Catalog) -> set[tuple[str | None, str]]:
    return {_key(m.id, m.context) for m in cat if m.id}


def _plurals(cat: Catalog) -> dict[tuple[str | None, str], str | None]:
    return {
        _key(m.id, m.context): (m.id[1] if isinstance(m.id, tuple) else None) for m in cat if m.id
    }


# -- the catalogues ---------------------------------------------------------------------------


@pytest.mark.parametrize("domain", LIVE)
def test_every_language_has_a_catalogue(domain: str) -> None:
    assert i18n.template_path(domain).is_file(), f"locales/{domain}.pot: run make catalogues"
    for lang in LANGUAGES:
        assert i18n.catalogue_path(lang, domain).is_file(), (domain, lang)


@pytest.mark.parametrize("domain", LIVE)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalogue_has_exactly_the_template_messages(lang: str, domain: str) -> None:
    pot = _read(i18n.template_path(domain))
    po = _po(lang, domain)
    assert _ids(po) - _ids(pot) == set(), f"{lang}/{domain} has messages the template lacks"
    assert _ids(pot) - _ids(po) == set(), f"{lang}/{domain} lacks messages of the template"
    assert _plurals(po) == _plurals(pot), f"{lang}/{domain}: plural forms differ"


@pytest.mark.parametrize("domain", LIVE)
def test_catalogues_agree_with_each_other(domain: str) -> None:
    sets = {lang: _ids(_po(lang, domain)) for lang in LANGUAGES}
    for a in LANGUAGES:
        for b in LANGUAGES:
            assert sets[a] - sets[b] == set(), f"{a} has {domain} messages that {b} lacks"


@pytest.mark.parametrize("domain", LIVE)
def test_template_is_up_to_date_with_the_code(domain: str) -> None:
    """Fails when a marked string was added or removed without re-extracting
    (``make catalogues``)."""
    found: set[tuple[str | None, str]] = set()
    skip = [ROOT / f for d, fs in DOMAINS.items() if d != domain for f in fs]
    for folder in DOMAINS[domain]:
        path = ROOT / folder
        if not path.is_dir():
            continue
        for file, _line, message, _comments, context in extract_from_dir(
            str(path), method_map=[("**.py", "python")], keywords=DEFAULT_KEYWORDS
        ):
            if any((path / file).is_relative_to(x) for x in skip if x != path):
                continue  # another domain's folder inside this one (bot/ holds no adapter)
            found.add(_key(message, context))
    pot = _ids(_read(i18n.template_path(domain)))
    assert found - pot == set(), f"messages in the code but not in locales/{domain}.pot"
    assert pot - found == set(), f"messages in locales/{domain}.pot no longer in the code"


@pytest.mark.parametrize("domain", LIVE)
@pytest.mark.parametrize("lang", CHINESE)
def test_chinese_catalogue_is_fully_translated(lang: str, domain: str) -> None:
    po = _po(lang, domain)
    assert po.num_plurals == 1
    untranslated = []
    for m in po:
        if not m.id:
            continue
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        if m.fuzzy or not strings or not all(s.strip() for s in strings):
            untranslated.append(m.id)
    assert untranslated == []


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("domain", LIVE)
def test_translations_keep_their_placeholders(lang: str, domain: str) -> None:
    for m in _po(lang, domain):
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        wanted = set().union(*(set(PLACEHOLDER.findall(i)) for i in ids))
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        for s in strings:
            if s:
                assert set(PLACEHOLDER.findall(s)) == wanted, (lang, m.id, s)
                s.format(**dict.fromkeys(wanted, "x"))  # well-formed braces


def test_simplified_and_traditional_differ() -> None:
    """The Traditional catalogue is not a copy of the Simplified one."""
    hans = {m.id: m.string for m in _po("zh_Hans") if m.id}
    hant = {m.id: m.string for m in _po("zh_Hant") if m.id}
    different = sum(1 for k in hans if hans[k] != hant.get(k))
    assert different > len(hans) // 2


# -- choosing a language ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "lang"),
    [
        ("en", "en"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("EN", "en"),
        ("en_US.UTF-8", "en"),
        ("zh", "zh_Hans"),
        ("zh-hans", "zh_Hans"),
        ("zh-Hans", "zh_Hans"),
        ("zh-cn", "zh_Hans"),
        ("zh-CN", "zh_Hans"),
        ("zh_CN", "zh_Hans"),
        ("zh-sg", "zh_Hans"),
        ("zh-Hans-CN", "zh_Hans"),
        ("zh_Hans", "zh_Hans"),
        ("zh-hant", "zh_Hant"),
        ("zh-Hant", "zh_Hant"),
        ("zh-tw", "zh_Hant"),
        ("zh-TW", "zh_Hant"),
        ("zh_TW", "zh_Hant"),
        ("zh-hk", "zh_Hant"),
        ("zh-HK", "zh_Hant"),
        ("zh-mo", "zh_Hant"),
        ("zh-Hant-HK", "zh_Hant"),
        ("zh_Hant", "zh_Hant"),
    ],
)
def test_resolve_lang_maps_platform_codes(code: str, lang: str) -> None:
    assert resolve_lang(code) == lang


def test_resolve_lang_skips_unknown_languages() -> None:
    assert resolve_lang("fr", "de-DE", "zh-TW", "en") == "zh_Hant"
    assert resolve_lang(None, "", "ja", "en-US") == "en"
    assert resolve_lang("pt-BR", "ru") == "en"
    assert resolve_lang() == "en"
    assert resolve_lang(None) == "en"
    assert resolve_lang("zh-CN", "en") == "zh_Hans"


def test_languages() -> None:
    assert LANGUAGES == ("en", "zh_Hans", "zh_Hant")
    assert set(i18n.LANGUAGE_NAMES) == set(LANGUAGES)


# -- translators -------------------------------------------------------------------------------


def test_translator_is_cached_per_language() -> None:
    assert translator("zh_Hans") is translator("zh-CN")
    assert translator("zh_Hant") is translator("zh-TW")
    assert translator("en") is translator(None) is translator("fr")
    assert translator("zh-hk").lang == "zh_Hant"
    assert {translator(lang).lang for lang in LANGUAGES} == set(LANGUAGES)


def test_translations_are_used() -> None:
    assert translator("en").gettext("Skip") == "Skip"
    assert translator("zh_Hans").gettext("Skip") == "跳过"
    assert translator("zh_Hant").gettext("Skip") == "跳過"
    assert translator("zh_Hans").gettext("Player {n}", n=3) == "玩家 3"


def test_plural_forms() -> None:
    en = translator("en")
    assert en.ngettext("{n} card", "{n} cards", 1) == "1 card"
    assert en.ngettext("{n} card", "{n} cards", 0) == "0 cards"
    assert en.ngettext("{n} card", "{n} cards", 3) == "3 cards"
    hans, hant = translator("zh_Hans"), translator("zh_Hant")
    assert hans.ngettext("{n} card", "{n} cards", 1) == "1 张"
    assert hans.ngettext("{n} card", "{n} cards", 3) == "3 张"
    assert hant.ngettext("{n} card", "{n} cards", 3) == "3 張"
    line = hans.ngettext("{player} drew {n} card.", "{player} drew {n} cards.", 5, player="小明")
    assert line == "小明 摸了 5 张牌。"


def test_missing_message_falls_back_to_english() -> None:
    zh = translator("zh_Hans")
    assert zh.gettext("no such message, {x}", x=1) == "no such message, 1"
    assert zh.ngettext("{n} thing", "{n} things", 2) == "2 things"


class _Broken(gettext.NullTranslations):
    def gettext(self, message: str) -> str:
        return "{oops"

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return "{missing} {n"


def test_a_broken_translation_falls_back_to_english() -> None:
    tr = Translator("zh_Hans", _Broken())
    assert tr.gettext("Hello {name}", name="A") == "Hello A"
    assert tr.ngettext("{n} card", "{n} cards", 2) == "2 cards"
    assert tr.format("Hi {x}", x=1) == "Hi 1"


def test_unknown_placeholders_are_left_alone() -> None:
    assert translator("en").gettext("Player {n}", other=1) == "Player {n}"


def test_marker_returns_its_argument() -> None:
    assert N_("Join") == "Join"


def test_join_spacing() -> None:
    assert translator("en").join(["A.", "", "B."]) == "A. B."
    assert translator("zh_Hans").join(["甲。", "乙。"]) == "甲。乙。"
