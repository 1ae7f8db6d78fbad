"""Finding many keywords at once: an Aho-Corasick automaton (pyahocorasick) over the lowercased
text, a few microseconds for a few hundred keywords, where a regular-expression alternation of
the same words costs ten times more (``re`` tries every alternative at every position)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import ahocorasick

__all__ = ["Gates", "KeywordIndex", "Substrings", "begin_message", "matches", "word_list"]


class _SharedPass:
    """The matches of every automaton the detectors run over a message's lowercased text, found in
    one pass of an automaton of all their words. Each pass costs 2-8 µs on 300 characters, about as
    much for 10 words as for 300 (the cost is per character); a message met a dozen of them.

    An automaton is added the first time it is asked about a message's text (that time it runs
    alone), and the combined automaton is rebuilt before the next message. A text other than the
    message's (a slice, the original case) is scanned by the asked automaton alone. Matches come in the order
    of the automaton's own ``iter``: by end, the longest first at one end.
    """

    def __init__(self) -> None:
        self._members: dict[int, Any] = {}  # id -> automaton (kept, so the id stays its own)
        self._built: frozenset[int] = frozenset()
        self._combined: Any = None
        # The same of the ASCII words alone, for an ASCII text (most messages): a word with another
        # character cannot occur in it, and the pass over it costs half (fewer and smaller nodes).
        self._combined_ascii: Any = None
        # (the message's lowercased text, members scanned for, their matches): replaced at once
        self._current: tuple[str, frozenset[int], dict[int, list[tuple[int, Any]]]] | None = None

    def begin(self, lower: str) -> None:
        if self._built != self._members.keys():
            self._build()
        hits: dict[int, list[tuple[int, Any]]] = {}
        combined = self._combined_ascii if lower.isascii() else self._combined
        if combined is not None:
            for end, owners in combined.iter(lower):
                for key, value in owners:
                    hits.setdefault(key, []).append((end, value))
        self._current = (lower, self._built, hits)

    def matches(self, automaton: Any, lower: str) -> Iterator[tuple[int, Any]]:
        current = self._current
        key = id(automaton)
        if current is not None and current[0] is lower:
            if key in current[1]:
                return iter(current[2].get(key, ()))
            # (joins the combined pass only when asked about a message: an automaton only ever run
            # over other texts, a slice or the original case, would make every pass longer for nothing)
            self._members.setdefault(key, automaton)
        return automaton.iter(lower)

    def occurs(self, automaton: Any, lower: str) -> bool:
        """Whether any of the automaton's words occurs in ``lower``: ``matches`` without an iterator
        made and read (a message asks a dozen times)."""
        current = self._current
        key = id(automaton)
        if current is not None and current[0] is lower and key in current[1]:
            return key in current[2]
        return next(self.matches(automaton, lower), None) is not None

    def _build(self) -> None:
        members = dict(self._members)
        owners: dict[str, list[tuple[int, Any]]] = {}
        for key, automaton in members.items():
            for word, value in automaton.items():
                owners.setdefault(word, []).append((key, value))
        self._combined = _automaton_of(owners)
        self._combined_ascii = _automaton_of({w: found for w, found in owners.items() if w.isascii()})
        self._built = frozenset(members)


def _automaton_of(owners: dict[str, list[tuple[int, Any]]]) -> Any:
    """An automaton of ``owners``' words, each reporting the members that hold it (None: no word)."""
    if not owners:
        return None
    combined = ahocorasick.Automaton()
    for word, found in owners.items():
        combined.add_word(word, tuple(found))
    combined.make_automaton()
    return combined


_SHARED = _SharedPass()


def begin_message(lower: str) -> None:
    """Scan a message's lowercased text for every automaton's words at once (see _SharedPass)."""
    _SHARED.begin(lower)


# ``matches(automaton, lower)``: ``automaton.iter(lower)``, from the message's shared pass when
# ``lower`` is its text (the bound method itself: a wrapper's call cost as much as the lookup).
matches = _SHARED.matches


def word_list(text: str) -> list[str]:
    """Keywords written one after another, separated by "|" (a keyword may hold spaces)."""
    return [w.strip() for w in text.split("|") if w.strip()]


def _is_word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _written_without_spaces(word: str) -> bool:
    """Chinese, Japanese, Korean and Thai keywords may stand anywhere inside a sentence."""
    return any(
        "\u0e00" <= ch <= "\u0e7f" or "\u3040" <= ch <= "\u30ff" or "\u3400" <= ch <= "\u9fff"
        or "\uac00" <= ch <= "\ud7af" for ch in word
    )  # fmt: skip


class KeywordIndex:
    """Occurrences of any of ``words`` in a lowercased text, as whole words.

    A keyword of a script written with spaces must not continue a word on its left; on its right
    it may take up to ``suffix_letters`` letters (inflections: "passwords", "lösenordet",
    "salasanani") when it has four letters at least. A keyword written without spaces (Chinese,
    Japanese, Korean, Thai) may stand anywhere.
    """

    def __init__(
        self, words: Iterable[str], *, suffix_letters: int = 0, compound_heads: Iterable[str] = ()
    ) -> None:
        self._suffix = suffix_letters
        # Keywords that may end a compound written as one word, letters before them ("Initialpasswort",
        # "beheerderswachtwoord", "wifilösenord"): German, Dutch and the Nordic languages join so.
        self._heads = frozenset(compound_heads)
        self._automaton = ahocorasick.Automaton()
        for word in {w.lower() for w in words}:
            self._automaton.add_word(word, (word, not _written_without_spaces(word)))
        self._automaton.make_automaton()

    def occurs(self, lower: str) -> bool:
        """Whether any keyword occurs in ``lower`` at all, as a whole word or inside one: where none
        does, no part of ``lower`` holds one either (from the message's shared pass)."""
        return _SHARED.occurs(self._automaton, lower)

    def find(self, lower: str) -> Iterator[tuple[int, int, str]]:
        """(start, end, keyword) of each whole-word occurrence, in order, ``end`` after any suffix;
        where whole-word occurrences overlap, the longest ("wifi password" rather than "password";
        "code" in "unlock code", since "lock code" is not a whole word there)."""
        found = []
        for end_index, (word, spaced) in matches(self._automaton, lower):
            end = end_index + 1
            start = end - len(word)
            stop = self._whole_word_end(lower, start, end, word in self._heads) if spaced else end
            if stop:
                found.append((start, stop, word))
        found.sort(key=lambda f: (f[0], f[0] - f[1], -len(f[2])))  # at one start: longest, then most specific
        taken_until = -1
        for start, stop, word in found:
            if start >= taken_until:
                taken_until = stop
                yield start, stop, word

    def _whole_word_end(self, lower: str, start: int, end: int, head: bool = False) -> int:
        """Where the word holding the keyword at ``start:end`` ends (with a suffix), or 0. A
        character of a script written without spaces next to it is another word ("PIN码", "的PIN")."""
        if (
            start > 0
            and _is_word_char(lower[start - 1])
            and not _written_without_spaces(lower[start - 1])
            and not (head and _compound_before(lower, start))
        ):
            return 0
        stop = end
        if end - start >= 4:
            while (
                stop < len(lower)
                and stop - end < self._suffix
                and lower[stop].isalpha()
                and not _written_without_spaces(lower[stop])  # "wifi密码" is two words
            ):
                stop += 1
        if stop < len(lower) and _is_word_char(lower[stop]) and not _written_without_spaces(lower[stop]):
            return 0
        return stop


def _compound_before(lower: str, start: int) -> bool:
    """Whether the word before ``start`` is letters alone, three at least, from its beginning."""
    at = start
    while at > 0 and lower[at - 1].isalpha():
        at -= 1
    return start - at >= 3 and not (at > 0 and _is_word_char(lower[at - 1]))


class Substrings:
    """Which of ``words`` occur in a text, anywhere (inside other words too: "pass" in
    "password"): the cheap test that lets a detector skip a message, in one pass of the automaton
    where ``re`` tries every alternative of a pattern at every position."""

    def __init__(self, words: Iterable[str]) -> None:
        self._automaton = ahocorasick.Automaton()
        for word in set(words):
            self._automaton.add_word(word, word)
        self._automaton.make_automaton()

    def search(self, text: str) -> bool:
        """Whether any of the words occurs in ``text``."""
        return _SHARED.occurs(self._automaton, text)

    def starts(self, text: str) -> Iterator[int]:
        """Where each occurrence of the words starts (overlapping ones too), in the automaton's order."""
        for end, word in matches(self._automaton, text):
            yield end + 1 - len(word)

    def found(self, text: str) -> set[str]:
        """Every word that occurs in ``text`` (overlapping occurrences included)."""
        return {word for _, word in matches(self._automaton, text)}

    def spans(self, text: str) -> Iterator[tuple[int, int]]:
        """(start, end) of the occurrences a regular expression alternating the words finds with
        ``finditer``: leftmost first, none overlapping the one before (the longest at one start,
        which is the alternation's choice when no word is a prefix of another). From the message's
        shared pass: the alternation's own scan tries every word at every position."""
        found = sorted((end + 1 - len(word), -len(word)) for end, word in matches(self._automaton, text))
        taken_until = -1
        for start, minus_length in found:
            if start >= taken_until:
                taken_until = start - minus_length
                yield start, taken_until


class Gates:
    """Which of ``words`` (lowercase) occur in a message's lowercased text, inside other words too:
    the tests that let a detector skip its work ("pw" in it, "sk-", "://"). Read from the message's
    shared pass once and kept for that message, where each ``word in text`` of a word of two to
    four letters costs 0.2-0.5 µs on 300 characters (CPython's search for a short needle skips
    little), and a message met a few dozen of them. For a text that is another than the message's
    own (a value's), the automaton runs over it alone, as ever."""

    def __init__(self, words: Iterable[str]) -> None:
        self.words = frozenset(words)
        self._substrings = Substrings(self.words)
        # (the text last read, the words in it): one attribute, read and replaced whole, so that a
        # thread redacting another message at the same time never gets this text's words for its
        # own (the text is kept: its identity stays its own)
        self._last: tuple[str, frozenset[str]] | None = None

    def present(self, lower: str) -> frozenset[str]:
        """The words that occur in ``lower``."""
        last = self._last
        if last is None or last[0] is not lower:
            last = (lower, frozenset(self._substrings.found(lower)))
            self._last = last
        return last[1]
