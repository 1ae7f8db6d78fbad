"""Which statements are in English: the rule editor's English-trained features read only those.

The static features of the statement classifier (a model2vec vector trained on English, hashed
English words, the English rules' type) read French, German or Spanish as noise, and typed
"Ich lerne gerade Spanisch" a fact or "Je dois rendre mon dossier avant le 15 mars" a constraint.
Statements in another language are judged by the multilingual models instead, as Chinese ones are.

Most statements say so cheaply: a word English uses and its neighbours do not ("the", "my",
"I'm" ...) settles it. The rest are identified by py3langid (langid.py's model, numpy only, about
30-120 µs a sentence after a 0.6 s load on first use), among the languages people write to an
assistant in Latin script. The model costs a process about 50-75 MB of memory once loaded (the
100,000-memory bench's peak RSS went from 679 to 724 MB); a process that only reads never loads
it. Without the package, every statement counts as English (the behaviour before).
"""

from __future__ import annotations

import functools
import re
from typing import Any

__all__ = ["in_english", "in_english_strictly", "language_of"]

# Words that are English and rarely a word of the languages below ("a", "in", "so", "die", "on"
# are words of those languages too, so they settle nothing; nor do "we", "is" and "was", which are
# Dutch, or "was", "will" and "am", which are German: "Sinds vorige week zijn we verhuisd naar
# Zwolle" counted as English, and its move was judged against the wrong memory; nor "he" (Spanish,
# Portuguese), "i" (Italian: "Ho portato i bambini al mare"), "to" (Polish, Czech), "of" (Dutch),
# or "for", "have" and "her" (Danish, Norwegian). "at" and "me" are words of those languages too,
# but kept: short English lines need "at" ("Dinner at Luca tonight"), and the multilingual models
# keep less of what "me" sends them ("Prefiero que me respondas en español", a preference, was
# kept at 0.41 against their 0.7).
_ENGLISH_WORDS = frozenset(
    str.split("""
    i'm i've i'll i'd my me mine the isn't are aren't wasn't were and it it's
    we're our you you're your this that these those has had with at be been not but
    just would can can't could don't doesn't didn't should what when where which who how
    from they their them she his him there here about because if or than then very really
    want need like going get got
    """)
)
_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")
# For :func:`in_english_strictly`: "me" and "at" are words of Spanish, French, Italian and
# Portuguese too, so they settle a short line only.
_SHORT_LINE_ONLY = frozenset({"me", "at"})
_SHORT_LINE = 5  # words
# Languages a statement outside English is told apart from (py3langid knows 97; limiting it to
# these keeps a short English line from reading as Latin or Quechua).
_CANDIDATES = (
    "en", "es", "fr", "de", "it", "pt", "nl", "pl", "sv", "da", "no", "fi", "cs", "ro", "hu",
    "tr", "id", "vi", "ca", "hi",
)  # fmt: skip
_MIN_WORDS = 3  # shorter lines ("ok cool", "Gracias!") carry too little to tell


def in_english(text: str) -> bool:
    """Whether ``text`` (a statement in Latin script) is English, as far as can be told."""
    return language_of(text) == "en"


def in_english_strictly(text: str) -> bool:
    """:func:`in_english`, with "me" and "at" settling a short line only: where a change told in
    another language must not pass for English ("Por cierto, me cambié de gimnasio: ahora voy al
    Club Marea" did, and its change was neither marked nor judged as told across languages), while
    the statement models keep the looser reading (above)."""
    return language_of(text, strictly=True) == "en"


def language_of(text: str, *, strictly: bool = False) -> str:
    """The language of ``text`` (an ISO 639-1 code among the candidates), "en" when it cannot be
    told. ``strictly``: "me" and "at" settle a short line only (:func:`in_english_strictly`)."""
    words = [w.lower() for w in _WORD.findall(text)]
    if strictly and len(words) >= _SHORT_LINE:
        return _language_of(text, words, _ENGLISH_WORDS - _SHORT_LINE_ONLY)
    return _language_of(text, words, _ENGLISH_WORDS)


def _language_of(text: str, words: list[str], settling: frozenset[str]) -> str:
    if len(words) < _MIN_WORDS or any(w in settling for w in words):
        return "en"
    identifier = _identifier()
    return "en" if identifier is None else str(identifier.classify(text)[0])


@functools.cache
def _identifier() -> Any:
    try:
        from py3langid.langid import MODEL_FILE, LanguageIdentifier
    except ImportError:  # pragma: no cover - the default install has it
        return None
    identifier = LanguageIdentifier.from_model_file(MODEL_FILE)
    identifier.set_languages(list(_CANDIDATES))
    return identifier
