"""Provider tokens (GitHub, Slack, Stripe, Shopify, ... 200+ services) from the gitleaks rule set.

The rules are gitleaks' own default configuration, vendored unchanged as data (``data/``, MIT):
each rule has a regular expression, the group that holds the secret, a minimum Shannon entropy,
keywords, and allowlists. They are applied as gitleaks applies them: a rule runs only when one
of its keywords occurs in the lowercased text (found for all rules at once with an Aho-Corasick
automaton), its secret must reach the rule's entropy, and its allowlists (regexes on the secret
or the match, stopwords) and the global allowlist let placeholders and ordinary words through.
Allowlists that depend on file paths do not apply to chat text and are skipped.

A rule is compiled (with the ``regex`` module, which reads gitleaks' RE2 syntax) the first time
one of its keywords is seen, so importing this module costs little.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import ahocorasick
import regex

from .keywords import matches
from .rules import P_FORMAT, Span, is_placeholder, shannon

__all__ = ["PRIORITY", "detect"]

# Just after the project's own fixed formats: where both find a token, the project's kind names it.
PRIORITY = P_FORMAT + 5

# Rules covered better by the project's own detectors, which know placeholders, code and prose:
# generic key=value secrets (rules.py's entropy detector), Terraform passwords (its password
# assignments), JWTs and Vault tokens (its fixed formats). The last two have keywords ("ey", "s.")
# found in most sentences; with the Terraform rule they cost half of this module's time.
_SKIPPED = frozenset({"generic-api-key", "hashicorp-tf-password", "jwt", "vault-service-token"})


@dataclass(slots=True)
class _Allow:
    target: str  # "secret" | "match" | "line"
    patterns: list[Any]
    stopwords: tuple[str, ...]
    all_of: bool  # condition AND: every listed check must hold


# gitleaks' semi-generic rules open with a lazy run of name characters before the service's name
# ("(?i)[\w.-]{0,50}?(?:twilio)..."), which the regex module tries at every position, up to fifty
# characters each (170 µs on a message that says "Jira"). Such a rule's matches are found as its
# own finditer finds them: the rest of the pattern (the service's name first) is searched for, and
# the rule's own pattern then from fifty characters before where it matched (see _matches).
_LAZY_NAME_PREFIX = r"(?i)[\w.-]{0,50}?"
_LAZY_NAME_REACH = 50


@dataclass(slots=True)
class _Rule:
    id: str
    source: str
    group: int | None
    entropy: float
    allows: list[_Allow] = field(default_factory=list)
    _compiled: Any = None
    _after_prefix: Any = None

    @property
    def pattern(self) -> Any:
        if self._compiled is None:
            self._compiled = regex.compile(self.source)
            if self.source.startswith(_LAZY_NAME_PREFIX):
                self._after_prefix = regex.compile("(?i)" + self.source[len(_LAZY_NAME_PREFIX) :])
        return self._compiled

    def matches(self, text: str) -> Iterator[Any]:
        """The pattern's ``finditer(text)``, the same matches. Where the rule opens with the lazy
        prefix, its pattern matches at a position only if the rest does (the name, or another
        alternative) at most fifty characters on, and nowhere before the first such place less
        fifty: each match is searched for from there."""
        pattern = self.pattern
        rest = self._after_prefix
        if rest is None:
            yield from pattern.finditer(text)
            return
        pos = 0
        while True:
            ahead = rest.search(text, pos)
            if ahead is None:
                return
            found = pattern.search(text, max(pos, ahead.start() - _LAZY_NAME_REACH))
            if found is None:  # (cannot be: the pattern matches where the rest does)
                return
            yield found
            pos = found.end() if found.end() > found.start() else found.end() + 1


def _allows(raw: list[dict[str, Any]]) -> list[_Allow]:
    found = []
    for allow in raw:
        if allow.get("paths") and allow.get("condition", "OR").upper() == "AND":
            continue  # needs a file path to match: never true for chat text
        patterns = [regex.compile(r) for r in allow.get("regexes", [])]
        stopwords = tuple(w.lower() for w in allow.get("stopwords", []))
        if patterns or stopwords:
            found.append(_Allow(allow.get("regexTarget", "secret"), patterns, stopwords, False))
    return found


# How most gitleaks rules say a token has ended: a quote, a space, ";", an escaped line break or the
# end. In chat a token is as often followed by punctuation ("gave me HRKU-..., where do I put it").
_CODE_ENDING = r"""(?:[\x60'"\s;]|\\[nr]|$)"""
# (and the full-width punctuation of Chinese and Japanese: "密钥：hf_...，为什么")
_CHAT_ENDING = r"""(?:[\x60'"\s;,.!?)\]}>，。、；：！？）」』】]|\\[nr]|$)"""


def _chat_ending(source: str) -> str:
    return source.replace(_CODE_ENDING, _CHAT_ENDING)


@functools.cache
def _rule_set() -> tuple[Any, dict[str, list[_Rule]], _Allow]:
    """(keyword automaton, keyword -> rules, the global allowlist), read once on first use."""
    with resources.files(__package__).joinpath("data/gitleaks.toml").open("rb") as fh:
        config = tomllib.load(fh)
    by_keyword: dict[str, list[_Rule]] = {}
    for raw in config["rules"]:
        if "regex" not in raw or raw["id"] in _SKIPPED or not raw.get("keywords"):
            continue
        rule = _Rule(raw["id"], _chat_ending(raw["regex"]), raw.get("secretGroup"), raw.get("entropy", 0.0),
                     _allows(raw.get("allowlists", [])))  # fmt: skip
        for keyword in raw["keywords"]:
            by_keyword.setdefault(keyword.lower(), []).append(rule)
    automaton = ahocorasick.Automaton()
    for keyword in by_keyword:
        automaton.add_word(keyword, keyword)
    automaton.make_automaton()
    glob = config.get("allowlist", {})
    everywhere = _Allow("secret", [regex.compile(r) for r in glob.get("regexes", [])],
                        tuple(w.lower() for w in glob.get("stopwords", [])), False)  # fmt: skip
    return automaton, by_keyword, everywhere


def _secret_span(rule: _Rule, match: Any) -> tuple[int, int]:
    if rule.group is not None:
        return match.span(rule.group)
    for group in range(1, (match.re.groups or 0) + 1):
        if match.group(group):
            return match.span(group)
    return match.span()


def _allowed(allow: _Allow, secret: str, whole: str) -> bool:
    target = whole if allow.target in ("match", "line") else secret
    if any(p.search(target) for p in allow.patterns):
        return True
    lowered = secret.lower()
    return any(word in lowered for word in allow.stopwords)


def _placeholder_pair(secret: str) -> bool:
    """A user and password pair whose password is a placeholder's word ("curl -u USERNAME:PASSWORD",
    "user:pass"): a command's documentation."""
    return ":" in secret and is_placeholder(secret.rsplit(":", 1)[1])


def detect(text: str, lower: str) -> Iterator[Span]:
    automaton, by_keyword, everywhere = _rule_set()
    rules: dict[str, _Rule] = {}
    for _, keyword in matches(automaton, lower):
        for rule in by_keyword[keyword]:
            rules[rule.id] = rule
    for rule in rules.values():
        for match in rule.matches(text):
            start, end = _secret_span(rule, match)
            secret = text[start:end]
            if not secret or shannon(secret) < rule.entropy or _placeholder_pair(secret):
                continue
            if _allowed(everywhere, secret, match.group()) or any(
                _allowed(a, secret, match.group()) for a in rule.allows
            ):
                continue
            yield start, end, rule.id.replace("-", "_"), PRIORITY
