"""What a sentence, a question and a filler are: one definition for every reader of a message.

The rule editor reads a message statement by statement and the contradiction rules compare
statements; both split and recognise questions here, so a message means the same to both.
"""

from __future__ import annotations

import functools
import re

import lemminflect

from ..text import content_terms
from .language import in_english

__all__ = [
    "MAX_MESSAGE_CHARS",
    "MAX_SENTENCES",
    "clauses",
    "clean_statement",
    "inline_items",
    "is_question",
    "parted",
    "split_sentences",
    "told",
]

MAX_MESSAGE_CHARS = 20_000  # the rest of a longer message is not read
MAX_SENTENCES = 200
_F = re.IGNORECASE

_FENCE = re.compile(r"```.*?(?:```|\Z)|~~~.*?(?:~~~|\Z)", re.S)
_BULLET = re.compile(r"^\s*(?:[-*•>]+|\d{1,2}[.)])\s+")
# (and the titles of Spanish, Portuguese and Italian: "o relatório para o Sr. Valadares")
_ABBREVIATIONS = re.compile(
    r"\b(e\.g|i\.e|etc|vs|mr|mrs|ms|dr|prof|approx|incl|cf|no|fig|st|sr|sra|srta|dra|sig|dott)\.", _F
)
# a middle initial inside a name ("Ursula K. Le Guin"), not the end of a sentence
_INITIAL = re.compile(r"\b([A-Z][a-z]+ [A-Z])\.(?= [A-Z][a-z])")
# A day written as an ordinal ("bis zum 20. den Vertrag", "am 3. Mai", "den 5. januar"): German,
# the Nordic languages and others end it with a full stop that does not end the sentence.
_ORDINAL_DOT = re.compile(
    # (not a time or a decimal: "in October, 2:04. want to go sub-2")
    r"(?<![:.,])\b(\d{1,2})\."
    r"(?= (?:[a-zäöüæøå]|(?i:jan|feb|mär|mar|apr|mai|maj|jun|jul|aug|sep|okt|nov|dez|des)\w*\b))"
)
_SENTENCE_END = re.compile(
    # (after a closing quote, a word in lower case goes on: "Translate 'where is the station?' into ...")
    r"(?<=[.!?…])(?:[)\]]*\s+|[\"'”’][\"'”’)\]]*\s+(?!(?-i:[a-z])))|\s*;\s+|\s+[-–—]\s+(?=(?:can|could|would|will)\s+you\b)"
    r"|(?<=[\U0001F300-\U0001FAFF])\s+(?=[A-Z])"  # "... for a while 😄 What are good ...?"
    # the outcome after a story's lead-up: "the school closed its art club, so long story short, I
    # signed my son up for pottery" (the outcome is the news; read with the lead-up it is lost in it)
    r"|(?:^|\s*,?\s+)(?:and\s+|so\s+)?(?:to\s+(?:cut|make)\s+a\s+)?long\s+story\s+short\s*[,:]\s*"
    r"|(?<=[。！？；])[”’」』）]*\s*",  # Chinese and Japanese sentence ends need no space after them
    _F,
)
# A question asked after a statement, in the same sentence: "My son Theo is 4, what toys are good?",
# "My mom turns 70 next month, any party ideas?", "a golden retriever called Maple — tips?". The
# statement before it is read on its own.
_QUESTION_TAIL = re.compile(
    r"(?:,|\s[-–—])\s*(?=(?:can|could|would|will)\s+you\b|(?:what|how|why|which|where)(?:'s|s)?\s+\w+"
    r"[^.!]*[?？]\W*$|any\s+(?:[\w-]+\s+){0,3}(?:ideas|tips|suggestions|recommendations|thoughts|advice)\b"
    r"|(?:what|how)\s+(?:should|can|could|do)\s+i\b[^.!?]*$"  # "..., what should i even eat" (no "?")
    r"|(?:tips|ideas|suggestions|recommendations|thoughts|advice)\b[^.!?]{0,40}[?？]\W*$"
    r"|(?:should|could|can)\s+i\b[^.!]*[?？]\W*$|(?:do|does)\s+(?:you|anyone)\b[^.!]*[?？]\W*$"
    r"|(?:is|are)\s+there\b[^.!]*[?？]\W*$"
    # a request for this reply at the end: "..., remind me??", "..., got any more like The Bridge?"
    r"|(?:please\s+)?remind me\b[^.!?]{0,40}[?？!]*\W*$"
    r"|(?:got|know|have you got)\s+any\s+(?:more|others?|similar)\b[^.!]*[?？]\W*$"
    # "I take warfarin, so is it ok to take ibuprofen?", "I have a pacemaker, is it safe to ...?"
    # (not "..., is that true?": the statement is what is asked about, not what the user holds)
    r"|(?:so\s+)?(?:is|are)\s+(?:it|this|that|these|those)\b"
    r"(?!\s+(?:actually\s+|really\s+|even\s+)?(?:true|right|correct|so|real|a myth)\b)[^.!]*[?？]\W*$"
    # asking in another language: "Soy celíaca, ¿qué postre puedo hacer?", "..., peux-tu vérifier
    # cette recette ?", "..., kannst du mir helfen?", "..., puoi ...?", "..., podes ...?", "..., kun je ...?"
    r"|¿|\w+-(?:tu|vous)\b[^.!]*[?？]\W*$|(?:kannst|könntest|können)\s+(?:du|sie)\b[^.!]*[?？]\W*$"
    r"|(?:puoi|potresti|può|podes|pode|poderia|kun je|kunt u|kan je)\b[^.!]*[?？]\W*$)",
    _F,
)
_FILLER = re.compile(
    r"^(?:(?:btw|by the way|also|oh and|and also|and|plus|ok so|okay so|so yeah|anyway|anyways|fyi|just fyi|"
    r"never ?mind|nvm|"
    r"jsyk|just so you know|hey|hi|hello|um+|uh+|oh)(?:\s*[,:;.!\-—–]+\s*|\s+)"
    r"|(?:so|ok|okay|well|actually|alright|right|note|nb|n\.b|ps|p\.s|for your information|one more thing|"
    r"another thing|quick note|side note|reminder|update|(?:please\s+)?(?:remind me|remember|don't forget)|"
    r"note to self|for the record|keep in mind)\s*[,:;.!\-—–]+\s*)",
    _F,
)
# "Big news - I moved to Ferrowick", "Work update — we switched to ...": up to four words, a spaced
# dash, then the user as the subject; not a lead-in that is the user's own clause or names someone
# ("I'm so tired - I slept 3 hours", "My brother Tom - I adore him", "Anna - my sister - ...")
_DASHED_LEAD_IN = re.compile(
    r"^(?!(?:i|i'm|im|we|we're|my|our)\b)[^\W\d_][\w']*(?:\s+(?-i:[a-z][\w']*)){0,3}\s+[-—–]\s+"
    r"(?=(?:i|i'm|i've|we|we're|we've)\b)",
    _F,
)
_QUESTION_START = re.compile(
    r"^(?:what(?:'s|s)?\s+(?:is|are|was|were|do|does|did|can|could|should|would|will|about|if|kind|sort|type|"
    r"time|happens|happened|the|a|an|you|your)\b|"
    r"how(?:'s)?\s+(?:do|does|did|can|could|should|would|will|is|are|to|much|many|long|often|come|about|far)\b|"
    r"why\b|where(?:'s)?\s+(?:is|are|do|does|can|should|did|was)\b|"
    r"who(?:'s)?\s+(?:is|are|was|can|should|wrote|knows|made)\b|whose\b|which\s+(?:\w+\s+)?(?:is|are|do|does|"
    r"should|one|would)\b|when(?:'s)?\s+(?:is|are|do|does|did|should|can|will)\b|"
    r"(?:can|could|would|will|should|shall|do|does|did|is|are|am|was|were|have|has|may|might)\s+"
    r"(?:you|i|we|it|there|they|this|that|he|she|u)\b|any\s+(?:idea|ideas|thoughts|tips)\b|"
    r"is\s+\w+\s+(?:better|faster|good|worse)\b)",
    _F,
)
_TRAILING = re.compile(r"[^\w?？]+$")


def is_question(s: str) -> bool:
    """A question: it ends with a question mark, or starts the way questions do ("how do", "can you").
    Not a request to be reminded of something to do ("Can you remind me on the 10th to pay the
    rent?"), which asks for a reminder kept for later (a task), not for an answer now."""
    if _REMINDER_REQUEST.match(s):
        return False
    return _TRAILING.sub("", s).endswith(("?", "？")) or _QUESTION_START.match(s) is not None


# (not "can you remind me what the capital of Peru is", "remind me how WAL works": asked now)
_REMINDER_REQUEST = re.compile(
    r"^(?:(?:can|could|would|will)\s+(?:you|u)\s+)?(?:please\s+|pls\s+|plz\s+|kindly\s+)?remind\s+me\s+"
    r"(?=to\b|on\b|at\b|about\s+(?:the|my|our)\b|in\s+\w+\s+(?:days?|weeks?|hours?|months?)\b|by\b|before\b"
    r"|tomorrow\b|tonight\b"
    r"|next\b|this\s+(?:\w+day|week|month|evening|afternoon|morning)\b|every\b"
    r"|(?:mon|tues|wednes|thurs|fri|satur|sun)day\b)",
    _F,
)


def split_sentences(message: str) -> list[str]:
    """The statements of ``message``: code fences dropped, one line or bullet at a time, cut after
    a sentence end (。！？ too), at ";", and before a trailing "can you ..." or "what do ..."."""
    text = _FENCE.sub("\n", message[:MAX_MESSAGE_CHARS]).replace("’", "'").replace("‘", "'")
    out: list[str] = []
    for line in text.splitlines():
        line = _BULLET.sub("", line).strip()
        if not line:
            continue
        protected = _ABBREVIATIONS.sub(lambda m: m.group(1) + "\x00", line)
        protected = _INITIAL.sub(lambda m: m.group(1) + "\x00", protected)
        if _ORDINAL_DOT.search(protected) and not in_english(line):
            # (in English "goes live on June 22. can you ..." ends a sentence there)
            protected = _ORDINAL_DOT.sub(lambda m: m.group(1) + "\x00", protected)
        for piece in _SENTENCE_END.split(protected):
            for part in _question_tail_parts(piece):
                part = part.replace("\x00", ".").strip()
                if part:
                    out.append(part)
                if len(out) >= MAX_SENTENCES:
                    return out
    return out


def _question_tail_parts(piece: str) -> list[str]:
    """``piece`` cut before a question asked at its end (:data:`_QUESTION_TAIL`), when what comes
    before says something of its own: "I have IBS, what can I eat?", but not "In the sentence 'I
    am allergic to cats', what is the subject?" (a lead-in without a verb outside its quotes is
    part of the question; a lead-in without quotes is not: "Vegetarian here, what should I cook?")."""
    parts = _QUESTION_TAIL.split(piece)
    if (
        len(parts) > 1
        and (unquoted := _QUOTED.sub("", parts[0])) != parts[0]
        and not _HAS_VERB.search(unquoted)
    ):
        return [piece]
    return parts


_QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”|(?<!\w)'[^']*'(?!\w)")


# Where one sentence tells two things of the user's, each with its own subject: "I'm vegan and my
# partner hates mushrooms", "she uses a wheelchair, and I get seasick", "I'm a nurse, my husband
# works days, we have twins". The second clause starts with the user (I, we) or one of theirs (my
# husband, our landlord) and a verb; each is a memory of its own, so that a later change of one
# replaces that one alone.
_FIRST_PERSON_SUBJECT = r"(?:i|i'm|im|i've|i'd|i'll|i am|i have|we|we're|we've|we'd|we'll)"
_VERB = (
    r"(?:am|is|are|was|were|be|been|have|has|had|do|does|did|don't|doesn't|didn't|can|can't|could|"
    r"will|won't|would|should|must|need|needs|want|wants|love|loves|like|likes|hate|hates|live|lives|"
    r"work|works|go|goes|got|get|gets|still|just|also|really|always|never|usually|only)"
)
_OWN_SUBJECT = rf"(?:my|our)\s+[\w-]+(?:'s)?(?:\s+[\w-]+)?\s+(?:{_VERB}|'s|\w+s|\w+ed)"
_CLAUSE_JOIN = re.compile(
    rf"(?:,\s*(?:and\s+then|and|then)?|\s+and(?:\s+then)?)\s+(?=(?:{_FIRST_PERSON_SUBJECT}\s+\w|{_OWN_SUBJECT}\b))",
    _F,
)
# The same join in the other languages users write in: "and" and the user (or one of theirs) as
# the subject, or (where the subject is left out) a verb of the user's own: "Mein Mann heißt Jannik
# und wir wohnen in Oberhain", "Sou professora de matemática e tenho dois filhos".
_CLAUSE_JOIN_ELSEWHERE = re.compile(
    r"(?:,\s*|\s+)(?:"
    r"und\s+(?=(?:ich|wir|mein\w*|unser\w*)\s+\w)"  # de
    r"|et\s+(?=(?:je|j'|nous|mon|ma|mes|notre|nos)\b)"  # fr
    r"|y\s+(?=(?:yo|mi|mis|nuestr[oa]s?)\s+\w|(?:tengo|soy|estoy|vivo|trabajo)\b)"  # es
    r"|e\s+(?=(?:eu|meu|minha|meus|minhas|nosso|nossa)\s+\w|(?:tenho|sou|estou|moro|trabalho)\b)"  # pt
    r"|e\s+(?=(?:io|mio|mia|miei|mie|nostr[oaie])\s+\w|(?:ho|sono|vivo|lavoro|abito)\b)"  # it
    r")",
    _F,
)
_CLAUSE_MIN_WORDS_ELSEWHERE = 3  # (a left part's verb is not read outside English: it must be longer)
# A clause that points back at the one before it ("I'm sitting it in November", "so I've decided
# to do it in January", "I need to sell the piano before then") says nothing alone: the sentence
# stays whole. So does one that gives the reason or the result ("so", "but": "I have IBS so I stick
# to low-FODMAP"), which the join above does not part at.
_REFERS_BACK = re.compile(
    r"\b(?:it|its|it's|them|him|her|his|their|there|then|those|these|both|one|ones)\b"
    r"|\bthat\b(?=\s*(?:$|[,.;:!?]))",  # ("that" at the end, not "a system that doesn't ...")
    _F,
)


def refers_back(text: str) -> bool:
    """Whether ``text`` points back at something said before it ("it", "them", "that" at the end)."""
    return _REFERS_BACK.search(text) is not None


# A left part that names someone beside the user ("my partner and I live", "Tom and we") is a
# subject, not a clause: it must hold a verb of its own.
_HAS_VERB = re.compile(
    rf"\b{_VERB}\b|'(?:m|re|ve|ll|d)\b|n't\b|\b\w{{3,}}(?:ed|ing)\b|^(?:\W*\w+\W+)??(?:i|we|she|he|they)\s+\w",
    _F,
)
_CLAUSE_MIN_WORDS = 2
# The user named second in a subject of two: "I" before a plural verb
_JOINT_SUBJECT = re.compile(r"i\s+(?:are|were|aren't|weren't|both)\b", _F)
_SUBJECT_FIRST = re.compile(rf"(?:{_FIRST_PERSON_SUBJECT}|my|our)\s", _F)
_ENCLOSED = re.compile(rf"\([^)]*\)|{_QUOTED.pattern}")


def _right_clause(rest: str) -> str:
    """The clause that starts ``rest``: up to the next join of its own."""
    following = _CLAUSE_JOIN.search(rest)
    return rest[: following.start()] if following else rest


def clauses(sentence: str) -> list[str]:
    """The clauses of ``sentence`` that each tell something of the user's with its own subject
    (see :data:`_CLAUSE_JOIN`); the sentence whole when it has one, or is a question."""
    parts: list[str] = []
    start = 0
    for join in _clause_joins(sentence):
        parts.append(sentence[start : join.start()].strip())
        start = join.end()
    parts.append(sentence[start:].strip())
    return [p for p in parts if p]


def lists_clauses(sentence: str) -> bool:
    """Whether ``sentence`` lists three or more clauses, the last added with "and" ("I'm a nurse,
    my husband works days, and we have twins"): in a list, a comma adds a thing as "and" does."""
    joins = _clause_joins(sentence)
    return len(joins) >= 2 and "and" in joins[-1].group().lower()


def _clause_joins(sentence: str) -> list[re.Match[str]]:
    """Where ``sentence`` parts into clauses (:func:`clauses`)."""
    if is_question(sentence):
        return []
    # a join inside brackets or quotes ("(Maya and Leo)") does not part the sentence
    masked = _ENCLOSED.sub(lambda m: "\x00" * len(m.group()), sentence)
    if not in_english(sentence):
        return _joins_elsewhere(sentence, masked)
    joins: list[re.Match[str]] = []
    start = 0
    for join in _CLAUSE_JOIN.finditer(masked):
        left = sentence[start : join.start()].strip()
        if len(left.split()) < _CLAUSE_MIN_WORDS or len(sentence[join.end() :].split()) < _CLAUSE_MIN_WORDS:
            continue
        # (after a lead-in that ends in a colon: "Some background: I work nights, ...", whose
        # words are no verb of the clause: "Podcast planning: my co-host Nell and I are ...")
        told = left.rsplit(": ", 1)[-1]
        # (read in the masked text: what is in brackets or quotes does not point back)
        if not _HAS_VERB.search(told) or _REFERS_BACK.search(_right_clause(masked[join.end() :])):
            continue
        if _JOINT_SUBJECT.match(masked, join.end()):
            continue  # ("my sister and I are flying out": one subject, "I are" no clause)
        if "and" not in join.group().lower() and not _SUBJECT_FIRST.match(told):
            # a comma alone after a request or a lead-in gives its reason ("make sure the recipe
            # has no peanuts, I carry an epipen"): only a list of the user's facts is parted there
            continue
        joins.append(join)
        start = join.end()
    return joins


def _joins_elsewhere(sentence: str, masked: str) -> list[re.Match[str]]:
    """:func:`_clause_joins` of a sentence not in English (:data:`_CLAUSE_JOIN_ELSEWHERE`)."""
    joins: list[re.Match[str]] = []
    start = 0
    for join in _CLAUSE_JOIN_ELSEWHERE.finditer(masked):
        left, right = sentence[start : join.start()], sentence[join.end() :]
        if (
            len(left.split()) >= _CLAUSE_MIN_WORDS_ELSEWHERE
            and len(right.split()) >= _CLAUSE_MIN_WORDS_ELSEWHERE
        ):
            joins.append(join)
            start = join.end()
    return joins


# What happened, told in the past tense: "I deployed on a Friday and broke checkout for two hours",
# "I was sick for three days", "Talked to the bank today", "Jonas started fourth grade this
# week", "the cat hid under the sink", "So this weekend was chaos" (no state that holds now,
# unless one is said beside it: "I broke my leg so I'm on crutches for six weeks"). The subject is
# the user, one of theirs, a thing ("the cat"), a time ("this weekend"), someone named, or left
# out; the verb is a past form (:func:`past_form`).
_SUBJECT_AND_VERB = re.compile(
    r"(?:i|we|it|(?:my|our|the|this|that|last)\s+[\w-]+|(?-i:[A-Z][a-z]+))\s+(?:just\s+)?(?P<verb>[a-z]+)\b",
    _F,
)
_WORD_START = re.compile(r"\b\w")
_LETTERS = re.compile(r"[a-z]*", _F)
_SUBJECT_WITHIN = 4  # the subject is one of the first four words ("Last night my sister ...")


def _starts_with_past_verb(statement: str) -> bool:
    """Whether ``statement`` opens with a past verb, its subject left out ("Talked to the bank")
    or among its first words ("Last week my sister moved out")."""
    words = [m.start() for m in _WORD_START.finditer(statement[:200])][:_SUBJECT_WITHIN]
    if words and past_form(_LETTERS.match(statement, words[0]).group()):
        return True
    return any(
        (told := _SUBJECT_AND_VERB.match(statement, start)) is not None and past_form(told["verb"])
        for start in words
    )


@functools.lru_cache(maxsize=4096)
def past_form(word: str) -> bool:
    """Whether ``word`` is a verb's simple past and not also its present ("hid", "spoke",
    "deployed"; not "read", "put", "set": "I read every night" tells a habit). lemminflect's
    inflection tables know the irregular verbs a hand-kept list missed ("spoke", "hid")."""
    word = word.lower()
    if word.endswith("ed") and len(word) > 4:
        return True  # (a regular past, or a verb lemminflect does not know: "deployed", "rebased")
    for lemma in lemminflect.getAllLemmas(word).get("VERB", ()):
        if word in lemminflect.getInflection(lemma, "VBD") and word not in lemminflect.getInflection(
            lemma, "VBP"
        ):
            return True
    return False


_NOW_STATE = re.compile(
    # (or what it stops: "sprained my ankle, so no running for two weeks", "... so I can't type"; or
    # how long something lasts from now: "hurt my back, walking only for the next ten days")
    r"\b(?:i'm|im|i am|we're|we are|still|now|currently|at the moment|can't|cannot|can not)\b"
    r"|,\s*\w+ing\b"
    r"|\bno\s+\w+ing\b|\bfor\s+the\s+(?:next|coming|rest\s+of)\b|\b(?:until|till)\b",
    _F,
)


def tells_past_event(statement: str) -> bool:
    """Whether ``statement`` tells what happened, in the past tense, and no state that holds now:
    a day it names is when it happened, not when a state ends."""
    return _starts_with_past_verb(statement) and _NOW_STATE.search(statement) is None


def told(message: str) -> str:
    """What ``message`` tells, without the questions it asks (``is_question``): "Switched to nights
    this week. Any tips for sleeping during the day?" tells "Switched to nights this week." A
    message of questions only is returned whole (it tells nothing, and reads as a question)."""
    sentences = split_sentences(message)
    statements = [s for s in sentences if not is_question(s)]
    if not statements or len(statements) == len(sentences):
        return message
    return " ".join(statements)


def parted(message: str, held: list[str], share: float = 0.6) -> tuple[str, str]:
    """``message`` in two: the sentences (or clauses, :func:`clauses`) ``held`` (memories'
    contents) say, with the questions asked beside them, and the rest it told. A sentence is held
    when a memory holds ``share`` of its content words; one without content words ("..."), with
    the held part."""
    held_terms = [content_terms(h) for h in held]
    said: list[str] = []
    rest: list[str] = []
    for sentence in (part for whole in split_sentences(message) for part in clauses(whole)):
        terms = content_terms(sentence)
        said_by_one = any(len(terms & h) >= share * len(terms) for h in held_terms)
        covered = not terms or is_question(sentence) or said_by_one
        (said if covered else rest).append(sentence)
    return " ".join(said), " ".join(rest)


# The header of a to-do list: a line ending with ":" that names one ("list for this week:", "things
# to do:", "errands sat:", "à faire :", "zu erledigen:"), followed by its items as bullets.
_TODO_NAME = (
    r"(?:my\s+)?(?:(?:to-?do|todo|to do|shopping)?\s*list|to-?dos?|to do|"
    r"things (?:(?:i|we) (?:need|have|got) )?(?:to do|for(?! you\b))|tasks|"
    r"errands|chores|jobs|reminders|checklist|liste|lista|(?:choses )?à faire|a fazer|da fare|por hacer|"
    r"pendientes|tareas|zu erledigen|aufgaben|erledigen|taken|klusjes|att göra|do zrobienia|やること|待办|"
    r"할 ?일)\b[^:\n]{0,30}"
)
# (asked for: "add to my list:", "please add these to the shopping list:")
_ADD_TO = r"(?:(?:please\s+)?add\s+(?:\w+\s+)?to\s+(?:the\s+)?)?"
_TODO_HEADER = re.compile(rf"^\s*{_ADD_TO}{_TODO_NAME}:\s*$", re.IGNORECASE)
# A to-do list on one line: "Things I need to do: renew my passport, call the plumber, and order
# Ingrid's present", "add to my list: get the kids' flu shots, and book the chimney sweep".
_INLINE_TODO = re.compile(rf"^\s*{_ADD_TO}{_TODO_NAME}:\s*(?P<items>\S.*)$", re.IGNORECASE)
_ITEM_SEPARATOR = re.compile(r"\s*[,;]\s*(?:and\s+)?|\s+and\s+(?=\w+\s+\w)", re.IGNORECASE)


# The header of a list of facts about the user ("things about me:", "about me:", "some background
# on me:", "über mich:"): each item is a fact of theirs, however short ("38, left-handed").
_ABOUT_ME_HEADER = re.compile(
    r"^\s*(?:(?:some|a few|quick|random|basic)\s+)?(?:things|facts|info|details|stuff|context|background)"
    r"\s+(?:about|on)\s+(?:me|myself|us)\b[^:\n]{0,20}:\s*$"
    r"|^\s*(?:(?:some\s+)?things (?:for you |you should |you need |you ought )?to know\b[^:\n]{0,30}"
    r"|for context|(?:pasted |copied )?from my notes)\s*:\s*$"
    r"|^\s*(?:(?:a (?:bit|little) )?about (?:me|myself|us)|my (?:details|background|profile)|über mich|"
    r"sobre mí|sobre mim|à propos de moi|su di me|over mij|关于我|私について)\s*[:：]\s*$",
    re.IGNORECASE,
)
LISTED_TASK, LISTED_FACT = "task", "fact"


def inline_items(sentence: str) -> list[str]:
    """The items of a to-do list written on one line (see :data:`_INLINE_TODO`); [] for any
    other sentence."""
    found = _INLINE_TODO.match(sentence)
    if found is None:
        return []
    items = [clean_statement(item) for item in _ITEM_SEPARATOR.split(found["items"])]
    return [item for item in items if item]


def is_list_header(statement: str) -> bool:
    """Whether a statement is a list's header ("list for this week", "things about me"), which
    says nothing itself."""
    line = statement + ":"
    return _TODO_HEADER.match(line) is not None or _ABOUT_ME_HEADER.match(line) is not None


def listed_items(message: str) -> dict[str, str]:
    """The items of each list in ``message`` (bullets under its header), cleaned as
    :func:`clean_statement` cleans a statement, each with what its header makes it: a task of the
    user's (a to-do list, :data:`LISTED_TASK`) or a fact about them (:data:`LISTED_FACT`)."""
    items: dict[str, str] = {}
    kind: str | None = None
    for line in message[:MAX_MESSAGE_CHARS].splitlines():
        if _TODO_HEADER.match(line) or _ABOUT_ME_HEADER.match(line):
            kind = LISTED_TASK if _TODO_HEADER.match(line) else LISTED_FACT
            continue
        if kind is not None and _BULLET.match(line):
            item = clean_statement(_BULLET.sub("", line))
            if item:
                items.setdefault(item, kind)
            continue
        kind = kind if not line.strip() else None  # a blank line may part the header from its items
    return items


def clean_statement(sentence: str) -> str:
    """The statement without leading fillers ("btw", "also,", "oh and"), a short lead-in before a
    dash ("Big news - I moved to ..."), bullets or stray quotes."""
    s = sentence.strip().strip('"“”').strip()
    s = _DASHED_LEAD_IN.sub("", s, count=1)
    for _ in range(4):
        trimmed = _FILLER.sub("", s, count=1).strip()
        if trimmed == s:
            break
        s = trimmed
    return s.strip(" ,;:-–—")
