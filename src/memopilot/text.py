"""Word-level text helpers shared by retrieval and consolidation: terms, stems, stopwords."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from difflib import SequenceMatcher

import orjson
import snowballstemmer

from .read.tokens import CJK_CHARS

__all__ = [
    "INDEX_TERMS_VERSION",
    "content_terms",
    "index_terms",
    "query_words",
    "read_stored_index_terms",
    "split_for_storage",
    "stem",
    "stored_index_terms",
    "term_counts",
    "text_ratio",
]

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?", re.UNICODE)
# Function words that carry no topic; kept short on purpose so that topic words such as
# "never", "always" or "before" still count.
STOPWORDS = frozenset(
    [
        "a",
        "about",
        "above",
        "after",
        "again",
        "all",
        "am",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "because",
        "been",
        "being",
        "both",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "down",
        "during",
        "each",
        "few",
        "for",
        "from",
        "further",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "i",
        "i'm",
        "if",
        "in",
        "into",
        "is",
        "it",
        "it's",
        "its",
        "itself",
        "just",
        "let's",
        "me",
        "more",
        "most",
        "my",
        "myself",
        "no",
        "nor",
        "not",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "our",
        "ours",
        "ourselves",
        "out",
        "over",
        "own",
        "same",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "that's",
        "the",
        "their",
        "theirs",
        "them",
        "themselves",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "very",
        "was",
        "we",
        "were",
        "what",
        "what's",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
        "please",
        "tell",
        "know",
        "remember",
    ]
)
_stemmer = snowballstemmer.stemmer("english")


@functools.lru_cache(maxsize=65_536)
def stem(word: str) -> str:
    return _stemmer.stemWord(word)


def _topic_words(text: str) -> list[str]:
    """Lower-case words of ``text`` that are not stopwords, in order, repeats included.

    A list, not a generator: this runs for every memory a user's index loads, and a generator's
    per-word overhead was a third of a cold read."""
    words: list[str] = []
    for word in _WORD.findall(text.lower().replace("’", "'")):
        if word.endswith("'s"):
            word = word[:-2]
        if word and word not in STOPWORDS:
            words.append(word)
    return words


def query_words(text: str) -> list[str]:
    """Distinct lower-case topic words of ``text`` in order (no stopwords, no stemming)."""
    return list(dict.fromkeys(_topic_words(text)))


# Process-wide, so kept small: an entry (a frozenset of a dozen words) takes about 1.5 KB, and what
# it caches (questions, a memory's text on the write path) seldom comes back soon.
@functools.lru_cache(maxsize=4096)
def content_terms(text: str) -> frozenset[str]:
    """The stemmed topic words of ``text`` (CJK as character pairs), for overlap measures."""
    return frozenset(term_counts(text))


# Chinese, Japanese and Korean run words together: a regex "word" there is a whole clause. Its
# characters are indexed as overlapping pairs (the usual CJK n-gram indexing, as Lucene's CJK
# analyzer and SQLite's trigram tokenizer do), so a question shares terms with a memory that says
# the same thing in other words around it.
_CJK_RUN = re.compile(f"[{CJK_CHARS}]+")


def _cjk_pairs(word: str) -> list[str]:
    """``word`` as terms: non-CJK parts whole, each CJK run as its overlapping character pairs (a
    lone character as itself)."""
    terms: list[str] = []
    start = 0
    for run in _CJK_RUN.finditer(word):
        if run.start() > start:
            terms.append(word[start : run.start()])
        chars = run.group()
        terms += [chars] if len(chars) == 1 else [chars[i : i + 2] for i in range(len(chars) - 1)]
        start = run.end()
    if start < len(word):
        terms.append(word[start:])
    return terms


def term_counts(text: str) -> dict[str, int]:
    """How often each stemmed topic word occurs in ``text`` (the keyword index's term frequencies);
    CJK runs count as their character pairs."""
    counts: dict[str, int] = {}
    count = counts.get
    for word in _topic_words(text):
        if word.isascii():  # (most words: no list of parts to make)
            term = stem(word)
            counts[term] = count(term, 0) + 1
            continue
        for part in _cjk_pairs(word):
            term = stem(part)
            counts[term] = count(term, 0) + 1
    return counts


# Stored with each memory row so that loading a user needs no tokenizing. Bump the version whenever
# what term_counts returns changes (stemmer, stopwords, word pattern, CJK pairs): rows stored
# under another version are tokenized again at load.
INDEX_TERMS_VERSION = 1
_STORED_PREFIX = f"v{INDEX_TERMS_VERSION}:"


def index_terms(content: str, tags: Sequence[str]) -> dict[str, int]:
    """The words a memory is found by, with their counts: stemmed topic words of content and tags."""
    return term_counts(content + "\n" + " ".join(tags))


def stored_index_terms(content: str, tags: Sequence[str]) -> str:
    """:func:`index_terms` as a store keeps it (versioned JSON)."""
    return _STORED_PREFIX + orjson.dumps(index_terms(content, tags)).decode()


def read_stored_index_terms(stored: str | None) -> dict[str, int] | None:
    """What :func:`stored_index_terms` stored, or None when missing or of another version."""
    if stored is None or not stored.startswith(_STORED_PREFIX):
        return None
    return orjson.loads(stored[len(_STORED_PREFIX) :])


def text_ratio(a: str, b: str) -> float:
    """SequenceMatcher similarity of two texts, case-insensitive (near-duplicates, restatements)."""
    return SequenceMatcher(None, a.lower(), b.lower(), autojunk=False).ratio()


def split_for_storage(text: str, limit: int) -> list[str]:
    """``text`` in pieces of at most ``limit`` characters, cut after a sentence or at a space
    where one is near the limit, so a long message is kept whole across several memories."""
    pieces: list[str] = []
    rest = text.strip()
    while len(rest) > limit:
        window = rest[:limit]
        cut = max(window.rfind(". "), window.rfind("\n"), window.rfind("? "), window.rfind("! "))
        if cut < limit // 2:
            cut = window.rfind(" ")
        if cut < limit // 2:
            cut = limit - 1  # one long word: cut it
        pieces.append(rest[: cut + 1].strip())
        rest = rest[cut + 1 :].strip()
    if rest:
        pieces.append(rest)
    return pieces
