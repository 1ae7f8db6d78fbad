"""Deterministic contradiction rules: does a NEW statement replace an OLD memory?

The write path calls :func:`find_supersessions` for every new memory, over the user's active and
pinned memories in scope. The rules read the *structure* of a sentence, never a list of topics; the
only word lists are closed grammatical classes (articles, pronouns, prepositions, auxiliaries,
change verbs such as moved/pushed/raised, preference verbs, calendar words). Each sentence of both
texts is tokenised (contractions expanded, "'s" told apart as "is" or a possessive), questions and
hedged sentences ("maybe we should switch to X") are ignored, and the rest is read four ways, tried
in this order for each old memory:

1. **Stances** (``preference_reversal``, ``negation``, ``change_marker``). A clause
   ``<subject> [not] <verb> <object>`` is a stance on that object, positive or negative.
   Preference verbs (like, love, enjoy, prefer, hate, dislike, "am into", ...) share one verb
   class, so "I like X" / "I don't like X anymore" / "I hate X" speak about the same thing.
   "I prefer X over Y" is +X and -Y; "switched from X to Y" is -X. The same subject and object (one
   term set inside the other, equal numbers) with the opposite polarity is a reversal.
   "I prefer dark mode" / "I prefer light mode" (same head noun, both preferred) is a new choice.
2. **Slots** (``same_slot_new_value``). A statement is read as an attribute and a value:
   ``<noun phrase> is|are|will be [prep] <value>`` ("The budget is $5,000", "The meeting is with Dana"),
   ``<NP> moved|changed|was pushed to <value>`` (a change verb: any preposition of that attribute),
   ``<subject> use|pick|go with|prefer <value> for|as <purpose>`` (the purpose is the attribute),
   ``<Name> is our/the <role>`` (the role is the attribute), ``<Name> owns|leads <the thing>``,
   ``I live|work|am based in|at <value>`` (moved/relocated to = live in),
   ``we <verb> the <object> in|on <value>`` ("We write the backend in Go"),
   ``<subject> <verb> <number> <noun>`` ("We have 5 engineers"), habits
   ``<subject> <verb> ... every <time>``, naming ("call the app X", "is called X") and
   imperatives ("answer in Spanish"). The attribute is normalised (lowercase, stemmed, articles,
   possessives and change adjectives such as "new" dropped, "of"/"for" qualifiers and possessors
   kept as modifiers). Two attributes are the same slot when one term set contains the other and
   their head nouns agree ("target audience" ~ "audience", "frontend framework" !~ "backend
   framework", "client contact" !~ "client"; a generic classifier head may stand in: "CI tool" ~
   "CI"), with the same calendar/number scope ("Q3 budget" !~ "Q4 budget") and a compatible
   relation. Values are compared by kind (amount, date/time, thing, class/adjective): a different
   value of a compatible kind supersedes; an adjective or "a/an ..." value only with a change signal
   ("now", "anymore", "actually", "new", ...); "I am <something>" never by value (many things hold
   of a person at once), only when negated ("I'm not vegetarian anymore").
3. **Explicit change markers** (``change_marker``): "switch(ed)/moved/migrated from X to Y",
   "replace X with Y", "X was replaced by Y", "Y replaced X", "Y instead of / rather than X",
   "no longer X", "not X anymore", "used to X", "stopped/quit/ditched/gave up X", "no more X",
   "X is out, Y is in", "..., not X", "changed my mind about X". The old memory is one that
   mentions X: all its terms or its proper names when X names something specific; when X is generic
   (a date, a number, a lowercase word) the old memory must hold X as a slot value or a stance of
   the same subject, and must mention the context the sentence names ("the standup").
4. **Corrections** ("actually, ...", "correction: ...", "scratch that", "on second thought",
   "I changed my mind: ..."): the rest is read with rules 1-3 (a correction alone in its sentence
   applies to the next one) and counts as a change signal; when it has no structure at all, an old
   memory sharing most of its topic words, but not a near-copy of it, is the one corrected
   (rule ``correction``).

Never superseded: episodes (raw evidence), consolidation summaries, memories not active or pinned,
and an old memory that says the same thing (same slot and value, or same stance: a duplicate, not a
contradiction; this also stops the marker rules for that memory). A new *episode* supersedes
nothing: it is a verbatim turn, not an interpretation. Critical memories are returned with
``blocked=True``: the caller flags the conflict and keeps them.

Everything here is a pure function of its arguments; sentence analyses are cached by text.
"""

from .choices import pointed_back_at, returned_to, settles_a_choice, weighs_a_choice
from .compare import (
    Supersession,
    announces_change,
    changed_period,
    find_supersessions,
    marks_change,
    slot_of,
    stale_episodes,
    states_one_thing,
    states_other_amounts,
)
from .sentences import takes_back

__all__ = [
    "Supersession",
    "announces_change",
    "changed_period",
    "find_supersessions",
    "marks_change",
    "pointed_back_at",
    "returned_to",
    "settles_a_choice",
    "slot_of",
    "stale_episodes",
    "states_one_thing",
    "states_other_amounts",
    "takes_back",
    "weighs_a_choice",
]
