"""Languages and message catalogues.

The catalogues are gettext ``.po`` files under ``locales/<lang>/LC_MESSAGES/<domain>.po``
(``messages`` for the core and the terminal, ``telegram`` and ``discord`` for the platforms);
each is compiled in memory with Babel the first time its language is used, so there is no
build step. A :class:`Translator` is passed explicitly to whatever renders text (no global
state). Strings defined in tables are marked with :func:`N_` so that ``pybabel extract``
finds them; they are translated where they are used (``tr.gettext(TABLE[key])``).

Regenerate the catalogues after changing a message (see ``babel.cfg``)::

    make catalogues

(``pybabel extract`` per domain from its folders, then ``pybabel update``; see the
Makefile)

then translate the new (empty or fuzzy) entries of both Chinese catalogues.
"""

from __future__ import annotations

import gettext as _gettext
import io
import logging
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

__all__ = [
    "DEFAULT_LANG",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "LOCALES_DIR",
    "N_",
    "Translator",
    "catalogue_path",
    "resolve_lang",
    "translator",
]

log = logging.getLogger(__name__)

LANGUAGES = ("en", "zh_Hans", "zh_Hant")
DEFAULT_LANG = "en"
# Each language in its own script: what a language picker shows (never translated).
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "zh_Hans": "简体中文", "zh_Hant": "繁體中文"}

LOCALES_DIR = Path(__file__).resolve().parent.parent / "locales"
DOMAIN = "messages"
# One catalogue per part of the code, so the platforms' texts are kept apart:
# domain -> the folders its messages are extracted from.
DOMAINS: dict[str, tuple[str, ...]] = {
    "messages": ("bot", "adapters/terminal"),
    "telegram": ("adapters/telegram",),
    "discord": ("adapters/discord",),
    "web": ("adapters/web",),
}


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it (tables of messages)."""
    return message


# -- choosing a language ----------------------------------------------------------------------

_HANS_REGIONS = frozenset({"cn", "sg", "my"})
_HANT_REGIONS = frozenset({"tw", "hk", "mo"})


def _map_one(code: str) -> str | None:
    """One platform locale code -> one of ours, or ``None`` for a language we lack."""
    text = code.strip().replace("_", "-").lower()
    if not text:
        return None
    parts = [p for p in text.split("-") if p]
    if not parts:
        return None
    lang, rest = parts[0], parts[1:]
    if lang == "en":
        return "en"
    if lang == "yue":  # Cantonese is written in Traditional characters
        return "zh_Hant"
    if lang != "zh":
        return None
    # a script subtag decides first (zh-Hant-CN is still Traditional), then the region
    if "hant" in rest:
        return "zh_Hant"
    if "hans" in rest:
        return "zh_Hans"
    if any(p in _HANT_REGIONS for p in rest):
        return "zh_Hant"
    return "zh_Hans"  # zh, zh-cn, zh-sg, zh-my, and any other region


def resolve_lang(*candidates: str | None) -> str:
    """The first candidate that maps to one of :data:`LANGUAGES`, else ``"en"``.

    Accepts our own codes (``zh_Hans``), Telegram ``language_code`` values (``zh-hans``,
    ``zh-tw``, ``en``), Discord locales (``zh-CN``, ``zh-TW``, ``en-US``) and POSIX forms
    (``zh_CN``, ``zh_TW.UTF-8``). A candidate in a language we do not have is skipped.
    """
    for cand in candidates:
        if not cand or not isinstance(cand, str):
            continue
        found = _map_one(cand.split(".", 1)[0].split("@", 1)[0])
        if found is not None:
            return found
    return DEFAULT_LANG


# -- translators --------------------------------------------------------------------------


class _SafeDict(dict[str, Any]):
    """Leaves an unknown ``{placeholder}`` as it is instead of raising."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _fill(text: str, params: Mapping[str, Any]) -> str:
    if not params:
        return text
    return text.format_map(_SafeDict(params))


class Translator:
    """Translations for one language. Read-only once built, safe to share."""

    __slots__ = ("_t", "lang")

    def __init__(self, lang: str, translations: _gettext.NullTranslations) -> None:
        self.lang = lang
        self._t = translations

    def __repr__(self) -> str:
        return f"Translator({self.lang!r})"

    @property
    def is_chinese(self) -> bool:
        return self.lang.startswith("zh")

    def gettext(self, message: str, /, **params: Any) -> str:
        """Translate ``message``; with ``params``, fill its ``{placeholders}``."""
        if not params:
            return self._t.gettext(message)
        return self._fill(self._t.gettext(message), message, params)

    _ = gettext

    def ngettext(self, singular: str, plural: str, n: int, /, **params: Any) -> str:
        """The plural form for ``n``, with ``{n}`` (and any ``params``) filled in."""
        text = self._t.ngettext(singular, plural, n)
        return self._fill(text, singular if n == 1 else plural, {"n": n, **params})

    def pgettext(self, context: str, message: str, /, **params: Any) -> str:
        """``gettext`` of ``message`` in ``context`` (same word, another meaning)."""
        text = self._t.pgettext(context, message)
        return self._fill(text, message, params) if params else text

    def npgettext(self, context: str, singular: str, plural: str, n: int, /, **params: Any) -> str:
        text = self._t.npgettext(context, singular, plural, n)
        return self._fill(text, singular if n == 1 else plural, {"n": n, **params})

    def format(self, message: str, /, **params: Any) -> str:
        """Translate a message marked elsewhere (an :func:`N_` table entry) and fill it."""
        return self._fill(self._t.gettext(message), message, params)

    def _fill(self, text: str, original: str, params: Mapping[str, Any]) -> str:
        """Fill ``text``; a translation whose placeholders do not fit falls back to the
        English ``original`` (a broken catalogue entry must not break a game)."""
        try:
            return _fill(text, params)
        except (ValueError, IndexError, AttributeError, TypeError):
            log.warning("bad translation of %r in %s", original, self.lang)
            return _fill(original, params)

    def join(self, parts: list[str] | tuple[str, ...]) -> str:
        """Sentences side by side: Chinese needs no space after its full stops."""
        sep = "" if self.is_chinese else " "
        return sep.join(p for p in parts if p)


def catalogue_path(lang: str, domain: str = DOMAIN) -> Path:
    return LOCALES_DIR / lang / "LC_MESSAGES" / f"{domain}.po"


def template_path(domain: str = DOMAIN) -> Path:
    return LOCALES_DIR / f"{domain}.pot"


def _load_domain(lang: str, domain: str) -> _gettext.GNUTranslations | None:
    path = catalogue_path(lang, domain)
    if not path.is_file():
        return None
    with path.open("rb") as f:
        catalog = read_po(f, locale=lang, domain=domain)
    buf = io.BytesIO()
    write_mo(buf, catalog)  # fuzzy entries are left out: they fall back to English
    buf.seek(0)
    return _gettext.GNUTranslations(buf)


def _load(lang: str) -> _gettext.NullTranslations:
    """The core catalogue, with each platform's catalogue chained behind it."""
    first: _gettext.NullTranslations | None = None
    for domain in DOMAINS:
        t = _load_domain(lang, domain)
        if t is None:
            continue
        if first is None:
            first = t
        else:
            first.add_fallback(t)
    if first is None:
        log.warning("no message catalogue for %s under %s", lang, LOCALES_DIR)
        return _gettext.NullTranslations()
    return first


_cache: dict[str, Translator] = {}
_cache_lock = threading.Lock()


def translator(lang: str | None) -> Translator:
    """The translator for ``lang`` (any code :func:`resolve_lang` accepts), cached."""
    code = resolve_lang(lang)
    found = _cache.get(code)
    if found is not None:
        return found
    with _cache_lock:
        found = _cache.get(code)
        if found is None:
            found = Translator(code, _load(code))
            _cache[code] = found
    return found
