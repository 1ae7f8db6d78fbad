"""The rule-based Memory Editor: deterministic, offline extraction of typed memories.

:class:`RuleEditor` reads one (already redacted) user message and answers with the same strict
:class:`~memopilot.write.editor.EditorOutput` an LLM editor gives. It works sentence by sentence:

1. Fenced code blocks are dropped; the rest is split into lines, then sentences (and ";" clauses).
2. Leading fillers ("btw", "also,", "oh and") are trimmed; the remainder is the memory's content,
   in the user's own words.
3. "forget ..." sentences become :class:`ForgetRequest` s naming the clearly best-matching existing
   memory (or nothing); they are never stored.
4. Questions, small talk, code and one-off commands to the assistant ("write a function", "fix this
   bug") are skipped. An imperative only counts when it is meant to last ("always", "never", "from
   now on", "for now", ...).
5. Each remaining sentence gets at most one type, from the first matching cue family in priority
   order: critical, mistake, deadline, temporary, learning_goal, task, decision, constraint,
   preference, project. Sentences with no cue give nothing: the editor prefers to miss a memory
   over storing chatter.

:func:`classify` is the same judgement for one statement (``memopilot add TEXT`` without --type).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal

import numpy as np

from ..domain import DEFAULT_IMPORTANCE, Memory, MemoryType
from ..read.tokens import mostly_cjk
from ..text import content_terms, query_words, stem
from . import dates
from .date_words import readable_dates
from .editor import EditorContext, EditorOutput, EditorResult, ForgetRequest, MemoryEditor, NewMemory
from .language import in_english
from .redaction import PLACEHOLDER
from .sentences import (
    LISTED_TASK,
    clauses,
    clean_statement,
    inline_items,
    is_list_header,
    is_question,
    listed_items,
    lists_clauses,
    past_form,
    refers_back,
    split_sentences,
    tells_past_event,
)
from .statement_classifier import (
    LABELS,
    NONE,
    Judged,
    RuleBars,
    ShapeFlags,
    StatementClassifier,
    default_classifier,
)

__all__ = ["RuleEditor", "classify"]

MAX_SENTENCE_CHARS = 600  # longer "sentences" are pasted prose or data, not a statement to remember
MAX_MEMORIES = 20  # EditorOutput's limit
MAX_TAGS = 5
# A forget request names an existing memory only when the match is clear.
FORGET_MIN_SCORE = 0.5
FORGET_MIN_MARGIN = 0.15

_F = re.IGNORECASE


def _words(text: str) -> list[str]:
    return text.split()


def _rx(*parts: str) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in parts), _F)


# -- splitting and cleaning ---------------------------------------------------------------------

# "remember that X", "keep in mind that X": an explicit request to remember X.
_MEMO_LEAD = re.compile(
    r"^(?:(?:please|pls)\s+|(?:can|could|would|will)\s+you\s+(?:please\s+)?)?(?:remember|keep in mind|note|"
    r"make a note|take note|bear in mind)(?:\s+(?:that|this|:))?[,:]?\s+(?!to\b)(?P<rest>.+?)[?]?$",
    _F,
)
_CODE_START = re.compile(
    r"^\s*(?:def |class |import |from \S+ import |>>>|\$ |#include|function\s*\w*\(|const |let |var |"
    r"public |private |return\b(?!\s+(?:the|a|an|my|your|our|his|her|their|this|that|these|those|it|them|"
    r"to|home|back|from|in|on)\b)|select .+ from |insert into |<\w+[^>]*>|</|[{}\[\]]\s*$)",
    _F,
)
_CODE_CHARS = set("{}[]()<>=;$`\\|&#")
_WORD_RE = re.compile(r"[^\W\d_]+", re.UNICODE)


def _looks_like_code(s: str) -> bool:
    if _CODE_START.match(s):
        return True
    symbols = sum(1 for ch in s if ch in _CODE_CHARS)
    return len(s) >= 8 and symbols / len(s) > 0.12


# -- what is not a memory -----------------------------------------------------------------------

_SMALL_TALK_WORDS = frozenset(
    _words(
        """
    hi hello hey yo hiya howdy thanks thank thx ty ok okay k kk cool nice great awesome perfect lol
    lmao rofl haha hahaha sure yes no yep yeah nope nah bye goodbye morning night wow oh hmm hm np
    cheers brb gtg amazing excellent indeed exactly agreed alright fine true same welcome
    appreciated
    """
    )
)
_SMALL_TALK_PHRASES = frozenset(
    [
        "thank you",
        "thanks a lot",
        "thank you so much",
        "see you",
        "how are you",
        "how are you doing",
        "how are you today",
        "how's it going",
        "what's up",
        "got it",
        "sounds good",
        "makes sense",
        "i see",
        "no problem",
        "you're welcome",
        "nice one",
        "love it",
        "i love it",
        "i like it",
        "i like that",
        "great job",
        "well done",
        "good job",
        "you rock",
        "thanks again",
        "much appreciated",
        "nice to meet you",
        "have a nice day",
        "good morning",
        "good night",
        "good evening",
        "good afternoon",
        "never mind",
        "nevermind",
        "never mind then",
        "no worries",
        "fair enough",
    ]
)
# Commands to the assistant for this reply: imperative verbs at the start of the statement.
_COMMAND_START = re.compile(
    # ("Need help writing a eulogy", "I need some help with the speech": a request for this reply)
    r"^(?:please\s+|pls\s+|plz\s+|kindly\s+|now\s+|then\s+|just\s+|quickly\s+"
    r"|(?:i\s+)?(?:really\s+)?need\s+(?:some\s+|your\s+)?(?=help\b))*"
    r"(?:write|rewrite|explain|fix|translate|show|give|make|create|generate|add|remove|delete|refactor|"
    r"summari[sz]e|list|tell|describe|implement|build|convert|check|review|debug|help|find|compare|draft|"
    r"compose|calculate|compute|run|update|optimi[sz]e|simplify|rename|format|send|open|print|return|try|do|"
    r"look|read|search|define|suggest|recommend|plan|outline|paraphrase|correct|proofread|edit|shorten|"
    r"expand|continue|go|answer|solve|test|draw|sketch|design|estimate|analy[sz]e|use|change|replace|move|"
    r"set|install|deploy|merge|split|sort|clean|tidy|insert|count|guess|name|pick|choose|imagine|pretend|"
    r"act|be|keep|avoid|don't|do\s+not|let\s+me|walk\s+me|teach|reply|respond|talk|speak|stop|start|"
    r"switch|put|include|skip|ignore|mention|note|consider|assume|double-check|verify|scan|parse|fetch|"
    r"extract|port|migrate|bump|revert|push|commit|lint|type|document|comment|cite|quote|share|send|email)\b"
    r"(?!\s+of\b|\s+in\s+plans?\b)",  # "change of plans: ...", "change in plans": a noun, not an order
    _F,
)
_RATHER = re.compile(r"\b(?:i'd|i would|we'd|we would)\s+(?:much\s+)?(?:rather|prefer)\b", _F)
_DURABLE = re.compile(
    r"\b(?:always|never|from now on|going forward|moving forward|in (?:the )?future|every time|each time|"
    r"whenever|by default|as a rule|all the time|any time|in every|in all (?:your|of your|future)|"
    r"anymore|any more|ever again|for everything|in everything)\b"  # "use metric units for everything"
    # whatever the assistant does for the user from now on: "in anything you write for me", "any
    # venue you suggest", "when you plan trips"
    r"|\b(?:(?:anything|everything|whatever|any\s+\w+(?:\s+or\s+\w+)?)\s+you|when\s+you)\s+(?:ever\s+)?"
    r"(?:write|suggest|recommend|send|plan|book|draft|cook|pick|propose|make)\b",
    _F,
)
# Instructions about *all* answers are lasting preferences even without "always".
_STYLE_DURABLE = re.compile(
    r"(?<!these )(?<!those )(?<!the following )\b(?:answers|responses|replies|explanations|code comments|"
    r"commit messages)\b",
    _F,
)
# A polite lead-in before a request ("pls stop ...", "could you stop ...")
_POLITE = r"(?:(?:please|pls|plz|can you|could you)\s+)?"
_STOP = re.compile(rf"^{_POLITE}stop\s+\w+ing\b", _F)
# "Use metric units with me", "be blunt with me": how to talk to the user, from now on.
_WITH_ME = re.compile(r"\bwith me\b", _F)
# "No emojis in your replies please", "no bullet points": how to write to the user, from now on
_NO_STYLE = re.compile(
    r"^(?:please\s+)?no\s+(?:more\s+)?(?:emojis?|emoticons|bullets?|bullet\s+points|jargon|markdown|headings|"
    r"filler|preamble|disclaimers?|caveats?|exclamation\s+marks|sarcasm|jokes|walls?\s+of\s+text|"
    r"long\s+(?:answers|replies|explanations))\b",
    _F,
)
_AN_ANSWER = r"(?:answer|reply|response|snippet|message)"
_ONE_OFF = re.compile(
    rf"\b(?:right now|this time|in (?:this|the) (?:next )?(?:{_AN_ANSWER}|one)|"
    rf"for (?:this|the) (?:next )?(?:{_AN_ANSWER}|one|question))\b",
    _F,
)
_ONE_ANSWER = re.compile(rf"\b(?:in|for) (?:this|the) (?:next )?{_AN_ANSWER}\b", _F)
_HEDGE = re.compile(
    r"\b(?:maybe|perhaps|might|not sure|unsure|wondering|i guess|i wonder|considering|thinking about|"
    r"thinking of|whether|should we|if we|haven't decided|undecided|not yet decided)\b",
    _F,
)


def _is_small_talk(s: str) -> bool:
    words = [w.lower() for w in re.findall(r"[\w']+", s)]
    return not words or " ".join(words) in _SMALL_TALK_PHRASES or all(w in _SMALL_TALK_WORDS for w in words)


# -- cue families (one statement gets the first that matches, in this order) ------------------

_CRITICAL_PREFIX = re.compile(r"^(?:critical|crucial|important|very important|warning)\s*[:!\-–—]", _F)
# Critical only when the user flags it as vital: a plain allergy or diagnosis is a fact or a
# constraint ("no matter what" and friends are figures of speech far more often than flags).
_CRITICAL = _rx(
    # "always remember X" said to the assistant, not "I'll always remember our trip"
    r"(?<!\bi'll )(?<!\bi will )(?<!\bwe'll )(?<!\bi'd )(?<!\bi )(?<!\bwe )"
    r"\b(?:always remember|never forget|don't ever forget|do not ever forget)\b",
    r"\blife[- ]threatening\b",
    r"\bsever(?:e|ely)\s+(?:\w+\s+)?allerg\w*|\banaphyla\w*|\bepipen\b",
    # the same flags in Chinese: "never forget", "be sure to remember", a severe allergy, anaphylaxis
    r"千万(?:别|不要|不能)忘|(?:一定要|务必)记住|永远(?:别|不要)忘|严重过敏|过敏性休克",
    # and in the other languages users write in: "nunca lo olvides", "n'oublie jamais", ...
    r"\b(?:nunca (?:lo |esto |eso )?olvides|no lo olvides nunca|recuerda siempre|n'oublie(?:z)? jamais|"
    r"ne l'oublie jamais|"
    r"vergiss (?:das |es )?(?:nie|niemals)|non dimenticar(?:lo|e)? mai|nunca (?:se )?esque[çc]a|"
    r"vergeet (?:dit |het )?nooit|nigdy nie zapomnij|никогда не забывай)\b",
    r"絶対(?:に)?忘れないで|決して忘れないで|절대 잊지 마",
)
# A user's own mark that a statement is vital, in other words than the phrases above: a word of
# importance ("vital", "crucial", "the most important thing", "lebenswichtig", "crítico") set apart
# as the statement's lead-in ("vital info, do not lose this: ...", "This one's crucial - ...",
# "Critical for this project: ..."), joined to a word of remembering ("Es crítico que lo
# recuerdes", "Really important, please keep this forever"), or said of it by the user ("I'm type 1
# diabetic and this is critical"). Two small classes of words, not a list of phrasings; a lead-in
# must speak of the statement or the user (this, it, me, you, info, thing ...), so that "Crucial game
# tonight - we play the leaders" and "Top priority this week: the report" flag nothing.
_IMPORTANCE = (
    r"(?:critical|crucial|vital|(?:very|really|super|extremely|hugely|incredibly|most) important|"
    r"important above all|above (?:all|everything) else|of (?:the )?utmost importance|"
    r"crítico|crítica|importantísimo|importantissimo|lebenswichtig|(?:ganz|sehr|extrem|äußerst) wichtig|"
    r"cruciale|vitale|capital|primordial|essentiel|essenziale|fondamentale|çok önemli|hayati|"
    r"bardzo ważne|niezwykle ważne|очень важно|крайне важно|非常重要|很重要|とても(?:大事|重要)|매우 중요)"
)
_REMEMBERING = (
    r"(?:remember|forget|keep (?:this|it|that) in mind|keep in mind|keep (?:this|it) forever|store|"
    r"don't lose|do not lose|never lose|merk|vergiss|vergessen|olvid|recuerd|oubli|souvien|dimentic|"
    r"ricord|esquec|lembr|onthoud|vergeet|zapamiętaj|nie zapomnij|unutma|запомни|не забудь|记住|别忘|"
    r"忘れないで|覚えて|잊지 마|기억해)"
)
_LEAD_ABOUT_IT = (
    r"(?:this|it|that|these|me|my|you|your|info|information|thing|note|fact|forever|always|never|"
    r"future)"
)
_VITAL_LEAD = re.compile(
    rf"^(?:(?:please\s+)?(?:flag|store|save|mark|keep|remember) (?:this|it) as\s+)?"
    rf"(?:(?:this|it|that)(?:'s| is| one's| one is)\s+(?:\w+\s+)?)?{_IMPORTANCE}\b"
    rf"(?:(?:[^:\n]{{0,50}}?\b{_LEAD_ABOUT_IT}\b[^:\n]{{0,30}}?)|\s*(?:\w+\s*)?)"
    r"\s*(?::|\s[-–—]+\s|[-–—]{2})",
    _F,
)
_VITAL_REMEMBER = re.compile(
    rf"\b{_IMPORTANCE}\b[^.!?\n]{{0,40}}?{_REMEMBERING}"
    rf"|{_REMEMBERING}\w*\b[^.!?\n]{{0,40}}?\b{_IMPORTANCE}\b",
    _F,
)
_VITAL_SAID = re.compile(rf"\b(?:this|that|it)(?:'s| is)\s+(?:\w+\s+)?{_IMPORTANCE}\b(?!\s+(?:to|for)\b)", _F)
_VITAL_DENIED = re.compile(rf"\b(?:not|isn't|nothing|no|non|nicht|nada|pas)\s+(?:\w+\s+)?{_IMPORTANCE}", _F)


def _vital_flag(s: str) -> bool:
    """Whether the user marks ``s`` as vital in words of importance (see :data:`_VITAL_LEAD`)."""
    if _VITAL_DENIED.search(s):
        return False  # "not critical, just itchy"
    for pattern in (_VITAL_LEAD, _VITAL_REMEMBER, _VITAL_SAID):
        if pattern.search(s) is None:
            continue
        if pattern is _VITAL_SAID and _FIRST_PERSON.search(s) is None:
            continue  # "it's crucial that seedlings get light": a saying, not the user's mark
        return True
    return False


# A condition of the body that binds what may be suggested (in several languages' common stems)
_CONDITION_WORDS = (
    r"\b(?:allerg|alerg|alerj|anaphyla|epipen|diab[eé]t|epilep|c[oe]?eliac|cel[ií]ac|asthma|intoleran|"
    r"аллерги|диабет|эпилеп)\w*"
    r"|アレルギー|过敏|過敏|알레르기|एलर्जी|حساسية"
)
_CONDITION = re.compile(_CONDITION_WORDS, _F)
# ... and what else about health or diet holds for the user everywhere, not in one project
_HEALTH = re.compile(
    rf"{_CONDITION_WORDS}|\b(?:medical|medication|pregnan\w*|vegan|vegetarian|kosher|halal|gluten|"
    r"lactose|dairy|shellfish|peanuts?)\b",
    _F,
)

_MISTAKE = _rx(
    r"\b(?:that|this|it|your(?: \w+){1,2})(?:'s| was| is)\s+(?:\w+ly\s+)?"
    r"(?:wrong|incorrect|a mistake|not right|not correct|broken|buggy|false|inaccurate)\b",
    r"\byou (?:made|make) (?:a |an |another |the same )?(?:\w+ )?(?:mistake|error)s?\b",
    r"\byou (?:were|are|got it|got that|got this) wrong\b|\byou got \w+(?: \w+)? wrong\b",
    r"\byou (?:broke|messed up|screwed up|deleted|overwrote|hallucinated|made up|forgot)\b",
    r"\b(?:that|this|it|your)(?: \w+){0,2} (?:broke|crashed|wiped|corrupted|deleted|erased|overwrote)\b",
    r"\b(?:that|this|it) (?:caused|introduced) (?:a |an |the )?(?:\w+ )?(?:bug|outage|crash|regression|"
    r"error)",
    r"\b(?:don't|do not|never)\b.{0,80}?\bagain\b",
    r"\b(?:i|we) made a mistake\b|\bthe mistake was\b|\blesson learned\b|\bmy bad\b",
    r"\b(?:that|this|it) (?:didn't|did not|doesn't|does not) work\b",
)
_MISTAKE_FILLER = frozenset(
    _words(
        """
    that this it was is wrong incorrect mistake mistakes you made make broke again don't do not
    never error errors totally completely really very answer your right correct bad didn't doesn't
    work worked false inaccurate another same one whole thing my lesson learned
    """
    )
)

_DEADLINE_CUE = re.compile(
    r"\b(?:due|deadline|deadlines|ships?|shipping|launch(?:es|ing)?|releas(?:e|es|ed|ing)|go(?:es)?[- ]live|"
    r"going live|demo|presentation|exam|submit|submission|deliver(?:y|able|ables)?|hand(?:ed)? in|hand-in|"
    r"turn(?:ed)? in|"
    r"cut-?off|code freeze|freeze|interview|appointment|meeting|eod|eow|cob|no later than|"
    r"clos(?:es|ing)(?:\s+date)?)\b",  # ("the application closes next Tuesday at noon")
    _F,
)
# The speaker's own current state ("I'm working from ...", "we're staying at ..."), not an action due.
_CURRENT_STATE = re.compile(
    r"^(?:(?:i|we)(?:'m|'re| am| are)\s+(?:\w+ing|in|at|on|away|off|out|staying|based)\b|"
    r"(?:working|staying|living)\s+(?:from|at|in)\b)",
    _F,
)
# "our release day is Tuesday", "standup days are Mondays": a schedule that repeats, not a due date
_RECURRING_DAY = re.compile(r"\bdays?\s+(?:is|are)\s+(?:now\s+|still\s+)?(?:on\s+)?$", _F)
_CLOCK_ONLY = re.compile(r"^\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)?\W*$", _F)
# The day named first, the deadline after it: "this Friday's the deadline for the grant report"
_DEADLINE_NAMED_AFTER = re.compile(
    r"(?:'s|’s|\s+is)\s+(?:the\s+|my\s+|our\s+|a\s+)?(?:hard\s+|final\s+)?(?:deadline|due\s+date|cut-?off)\b",
    _F,
)
_DEADLINE_BY = re.compile(r"\b(?:by|before|no later than)\s+(?:the\s+)?$", _F)
# A date, then what must be done before it: "the quote is valid until the 5th, need to decide by
# then", "our fixed rate ends on the 15th so we need a new deal before then" (due that day).
_DUE_BY_THEN = re.compile(r"\b(?:by|before)\s+then\b", _F)
# A time of day that bounds a habit or what the user can do, every day: "i can only train before
# 7am", "I never eat after 8pm", "calls only before 10am": no day is due.
_DAILY_BOUND = re.compile(r"\b(?:can|can't|cannot|only|always|usually|never|every|each|daily)\b", _F)
_DEADLINE_PHRASE = re.compile(r"^(?:by|before|eod|eow|eom|cob|close of business|(?:the\s+)?end\s+of)\b", _F)

_TEMPORARY = _rx(
    r"\b(?:today only|only today|just today|for today|for the rest of the (?:day|week)|for the day|"
    r"for now|temporar(?:y|ily)|for the time being|for the moment|at the moment|in the meantime|"
    r"this week|this weekend|for this (?:session|conversation|chat)|this session|for the session|"
    r"tomorrow only|for tomorrow|short[- ]term|until further notice)\b",
    r"\bfor\s+(?:the\s+)?(?:next|coming)\s+(?:\w+\s+)?(?:minutes?|hours?|days?|weeks?)\b",
    r"\bfor\s+(?:about\s+|around\s+|roughly\s+|approximately\s+)?(?:\d+|an?|one|two|three|four|five|six|"
    r"seven|eight|nine|ten|eleven|twelve|fourteen|a couple of|a few|several)\s+"
    r"(?:minutes?|hours?|days?|weeks?)\b",
    r"\b(?:until|till|til)\b",
    dates.STATE_SPAN.pattern,  # "doing a 7-day sugar detox"
    # "Today I'm using X" (not "Today I went ...": a past event is no short-lived state)
    r"^(?:today|tonight|this (?:morning|afternoon|evening))\b,?\s+(?:i'm|i am|we're|we are)\b",
)

_LEARNING = _rx(
    r"\bi(?:'d| would)?\s+(?:really\s+)?(?:want|wanna|like|love|hope|plan|aim|intend|need)\s+to\s+"
    r"(?:learn|study|master|get (?:better|good) at|improve (?:at|in|on|my)|understand|become (?:better|good|"
    r"fluent|proficient|an expert)|be (?:better|good|fluent) at|level up|brush up|pick up)\b",
    r"\bi(?:'m| am)\s+(?:currently\s+|now\s+|slowly\s+|still\s+)?(?:learning|studying|trying to learn|"
    r"teaching myself|practi[cs]ing|getting into|working on (?:my|improving))\b",
    r"\bteach me\b.*\b(?:over time|gradually|as we go|along the way|bit by bit|little by little)\b",
    r"\bhelp me (?:learn|get better at|improve|master)\b.*\b(?:over time|gradually|as we go|along the way)\b",
    r"\bmy (?:learning |study )?goal is to (?:learn|master|get better|understand|become|improve)\b",
    r"\bi(?:'m| am) (?:a beginner|new to|a newbie)\b.*\b(?:want|learn|improve)\b",
)

_TASK_WE_EXCEPT = (
    r"(?!(?:support|use|stay|keep|remain|be|comply|follow|avoid|run on|work (?:on|with)|target|maintain|"
    r"pass|match|respect|meet|handle|store|ensure|never|always)\b)"
)
# "Reminder for me: ...", "Reminder: ...": a task (due on the day it names, see _deadline)
_REMINDER_LABEL = r"^(?:a\s+)?reminder(?:\s+for\s+(?:me|myself))?\s*[:\-–]"
_TASK = _rx(
    r"^(?:todo|to-do|to do|task|action item)\s*[:\-–]|^(?:still\s+)?(?:need|have|got|gotta)\s+to\s+\w+",
    r"\bremind me (?:to|about|that|of)\b|^(?:please\s+)?remember to\b",
    r"\bi(?:'ll)?\s+(?:still\s+|really\s+|also\s+|definitely\s+|urgently\s+)?(?:need|have|must remember|"
    r"should remember|must not forget|mustn't forget)\s+to\s+"
    # (not a standing rule: "so I have to be careful with painkillers", "I need to avoid dairy")
    r"(?!admit|say|agree|ask|wonder|laugh|apologi|be careful|avoid|stay away)",
    r"\bi(?:'ve| have) got to\b|\bi gotta\b|\bi should (?:probably |really )?(?:finish|write|call|email|fix|"
    r"update|review|check|book|buy|send|prepare|clean|refactor|add|move|test)\b",
    r"\b(?:on|to|onto) my (?:to-?do |todo )?list\b(?!\s+of\b)|\bmy (?:to-?do|todo) list\b",
    _REMINDER_LABEL,
    r"\b(?:don't|do not) (?:let me )?forget to\b",
    r"\b(?:my|our|the) next (?:step|task) is\b",
    r"\bnote to self\b",
    rf"\bwe (?:still )?(?:need|have|'ve got|have got) to {_TASK_WE_EXCEPT}",
)
_TASK_NOT = re.compile(r"\bi (?:need|have) (?:you|u) to\b", _F)

_DECISION = _rx(
    r"\b(?:we|i|the team|team)(?:'ve| have)?\s+(?:finally\s+|just\s+|already\s+|now\s+)?(?:decided|agreed|"
    r"chose|chosen|picked(?!\s+up\b)|settled on|opted|committed to)\b",
    r"\blet's (?:go with|use|stick with|pick|choose|settle on|keep|adopt|standardi[sz]e on|switch to|"
    r"move to)\b",
    r"\b(?:we|i)(?:'ll| will| shall)\s+(?:go with|use|stick with|adopt|switch to|keep using|move to|"
    r"migrate to)\b",
    r"\b(?:we|i)(?:'re| are| am|'m)\s+(?:going with|going to use|going to go with|sticking with|switching to|"
    r"moving to|migrating to|dropping|standardi[sz]ing on)\b",
    r"\b(?:we|i) (?:went with|switched to|moved to|migrated to|replaced \w+(?: \w+)? with|dropped)\b",
    r"\bthe (?:final |new )?decision (?:is|was)\b|\b(?:final|our) decision:",
    # a statement led by the word: "Decided: keeping the car after all", "Decision made: ..."
    r"^\W*(?:decided|decision(?:\s+made)?)\s*:\s*\w",
    r"\bgoing forward,? we(?:'ll| will)\b",
    # Change statements: a new choice that replaces an old one.
    r"\b(?:we|i)(?:'ve| have)?\s+(?:just\s+|now\s+|finally\s+|recently\s+)?"
    r"(?:switched|moved|migrated|changed|transitioned)\s+(?:\S+\s+){0,4}?(?:from|to|over to)\b",
    r"\b(?:we|i) (?:no longer|don't|do not|won't|will not) (?:use|run|host|deploy|support|need)\b"
    r".*\b(?:anymore|any more|now|instead)\b",
    r"\b(?:we|i) no longer (?:use|run|host|deploy|support)\b",
    r"\b(?:we|i) (?:now use|use|run|picked|chose|prefer) \S+(?: \S+){0,3} instead of\b",
    r"\binstead of \S+(?: \S+){0,3}, (?:we|i)(?:'ll| will)? (?:use|go with|pick|run)\b",
    r"\b(?:we|i) now (?:use|run|host|deploy)\b",
    r"\b(?:the|our|my) (?:\w+ ){0,2}(?:is|are) now (?:\$|€|£)?\d",
)

_CONSTRAINT_STRONG = _rx(
    r"\b(?:must|mustn't|must not|shall not|is not allowed|isn't allowed|are not allowed|aren't allowed|"
    r"not allowed|not permitted|forbidden|prohibited|is required|are required|required to|mandatory|"
    r"is a hard requirement|hard requirement)\b",
    r"\bonly\b.{1,60}\b(?:allowed|permitted|supported|accepted)\b",
    # "strobe lights are a no", "red meat is off the table" (not "a no-brainer")
    # ("horror films are a hard no for me" is a taste, left to the preference reading)
    r"\b(?:is|are)\s+(?:a\s+(?:hard\s+|firm\s+|big\s+)?(?:no-go|no)(?![\w-])|off[- ]limits"
    r"|out of the question|off the table|not an option)(?!\s+for\s+me\b)",
)
_CONSTRAINT = _rx(
    r"\b(?:cannot|can't|can not|may not|never|has to|have to|have got to|needs? to|should never|capped at|"
    r"always|is limited to|are limited to|no more than|no less than|at most \d|at least \d|maximum of|"
    r"minimum of|stay (?:under|below|within)|keep (?:it |them )?(?:under|below|within))\b",
)
_CONSTRAINT_NOT = re.compile(
    r"\b(?:can't|cannot|can not)\s+(?:\w+\s+)?(?:believe|figure|find|get|see|understand|remember|reproduce|"
    r"seem|wait|stand|tell|log|sign|make it|thank|decide|think|stop|help|imagine|say)\b|"
    r"\bi (?:can't|cannot|can not)\s+(?:\w+\s+)?(?:access|open|connect|load|install|run|build|compile|"
    r"push)\b|\bmust(?:'ve| have) (?:been|\w+ed)\b|\bmust be (?:nice|joking|kidding)\b|"
    r"\b(?:have|had) to (?:admit|say|agree|ask|wonder|laugh|apologi[sz]e|thank|confess|hand it)\b",
    _F,
)
_PLEASE_RULE = re.compile(r"^please (?:always|never|don't ever|do not ever|avoid)\b", _F)

_PREFERENCE = _rx(
    r"\b(?:i|we)\s+(?:really\s+|much\s+|strongly\s+|generally\s+|usually\s+|kind of\s+|kinda\s+|"
    r"definitely\s+|also\s+|just\s+|absolutely\s+|still\s+|totally\s+)?"
    r"(?:prefer|like|love|enjoy|adore|hate|dislike|despise|detest|loathe)\b",
    r"\bi(?:'d| would) (?:much )?(?:rather|prefer)\b",
    r"\b(?:i|we) (?:do not|don't|didn't|never|really don't) (?:really )?(?:like|love|enjoy|want)\b",
    r"\bi(?:'m| am) (?:not )?(?:a (?:big |huge |great )?fan of|into|partial to)\b",
    r"\bmy (?:favou?rite|preferred|go-to)\b|\b(?:favou?rite|preferred) \w+ is\b",
    r"\bplease (?:always|never|don't ever|do not ever|stop|avoid)\b",
    r"\bi can't stand\b|\bi(?:'m| am) (?:sick|tired) of\b",
    # (a habit, but not a lapse of memory: "I always forget how many ml are in a cup", "I always
    # mix up domani and dopodomani" ask for a fact now; "I always forget to defrost ..." stays)
    r"\bi (?:always|never|usually|tend to|typically)\b"
    r"(?!\s+(?:forget|mix (?:\w+ )?up|lose track|get (?:\w+ )?(?:confused|mixed up))\b(?!\s+to\b))",
    r"\b(?:i|we) want you to (?:always|never|stop|keep)\b|\bi(?:'d| would) like you to (?:always|never)\b",
    r"\bi (?:always )?want (?:my|your) (?:answers|responses|replies|code|explanations)\b",
    r"\bi(?:'m| am) (?:a )?(?:vegan|vegetarian|pescatarian|lactose intolerant|gluten intolerant|teetotal)\b",
    r"\b(?:from now on|going forward|moving forward|in (?:the )?future)\b",
    rf"^(?:(?:and|oh and)\s+)?{_POLITE}stop (?:using|adding|writing|putting|giving|"
    r"being|saying|apologi[sz]ing|calling|suggesting|recommending|sending)\b",
    r"\bcall me\b|\baddress me as\b|\bmy name is\b|\bmy pronouns are\b",
    r"\b(?:every(?:one|body)|people|my friends|friends)\s+(?:just\s+)?calls?\s+me\b",
)
_PREFERENCE_VAGUE = frozenset(
    _words(
        """
    it this that these those them you one ones so much lot lots very really too way idea ideas
    answer answers response reply suggestion thing things stuff how what thanks haha lol it's that's
    was is are were your explained did said wrote put handled answered
    """
    )
)
_PREFERENCE_OBJECT = re.compile(
    r"\b(?:prefer|like|love|enjoy|adore|hate|dislike|despise|detest|loathe|rather|want|fan of|into|"
    r"stand)\b(?P<rest>.*)",
    _F,
)
_STYLE = re.compile(
    r"\b(?:answer|answers|reply|replies|respond|response|responses|explain|explanation|explanations|tone|"
    r"emoji|emojis|emoticons|bullet|bullets|bullet points|concise|verbose|wordy|long-winded|markdown|jargon|"
    r"headings|summaries|tl;?dr|casual|formal|sarcasm|sarcastic|humou?r|jokes?|step[- ]by[- ]step|spelling|"
    r"in (?:english|french|spanish|german|chinese|japanese|italian|portuguese|dutch|plain english)|"
    r"talk to me|speak to me|write to me|call me|address me|my name|pronouns|exclamation|apologi[sz]\w*|"
    r"filler|preamble|disclaimers?|caveats?|code comments|metric|imperial|be (?:brief|short|concise)|"
    r"keep it (?:short|brief))\b",
    _F,
)
_PROJECT_MARKER = re.compile(
    r"\b(?:we|we're|we've|we'll|our|ours|us|this project|the project|this repo|the repo|this codebase|"
    r"the codebase|the team|our team|in this app|for this app|in this service|this service|in this repo|"
    r"for this project|in this project|here at)\b",
    _F,
)

_PROJECT_NOUN = (
    r"(?:project|stack|tech stack|repo|repository|codebase|code base|app|application|api|backend|back-end|"
    r"frontend|front-end|service|services|server|servers|database|db|website|site|cli|library|package|"
    r"product|system|bot|monorepo|pipeline|ci|infra|infrastructure|cluster|team|company|startup|client|deployment|"
    r"build|docs|documentation|tests|test suite|schema|module|microservices?|platform|stack)"
)
_PROJECT = _rx(
    rf"\b(?:the|this|our|my)\s+(?:main\s+|new\s+|whole\s+|production\s+|prod\s+|staging\s+)?{_PROJECT_NOUN}"
    r"(?:\s+\w+){0,3}?\s+(?:(?:is|are|was)\s+(?:now\s+)?(?:a|an|the|our|written|built|called|named|hosted|deployed|"
    r"based|located|stored|kept|open[- ]source|private|public|in|on|at|(?-i:[A-Z0-9])\w*)|uses|use|runs|run|"
    r"depends|depend|relies|rely|lives|live|targets|talks|deploys|stores|serves|"
    r"consists|contains|sits|has|have|supports|calls|listens|connects|lets|exposes|needs)\b",
    r"\bour (?:stack|tech stack|main language|language|framework|database|db|cloud|ci|cd|infra|team|"
    r"product|users|customers)\b",
    r"\b(?:we|i)(?:'re| are| am|'m)\s+(?:currently\s+)?(?:building|developing|making|creating|writing|"
    r"working on|maintaining|running|using|hosting|deploying)\b",
    r"\bwe\s+(?:currently\s+|mostly\s+|mainly\s+|only\s+)?(?:use|run|deploy|host|develop|build|ship|maintain|"
    r"store|target|support)\b",
    r"\bi\s+(?:currently\s+|mostly\s+|mainly\s+|only\s+)?(?:use|develop (?:in|on|with)|code in|"
    r"write (?:mostly )?in|maintain|deploy (?:to|on))\b",
    r"\b(?:it|everything)(?:'s| is) (?:written|built|deployed|hosted|running) (?:in|with|on|to)\b",
    r"\b(?:runs on|is hosted on|is deployed (?:to|on)|listens on|is written in|is built (?:with|on)|"
    r"depends on|relies on|talks to|is backed by)\b",
    r"\bi work (?:at|for|on|in)\b|\bmy (?:team|company|employer|role|job) (?:is|uses)\b|\bi(?:'m| am) an? "
    r"(?:\w+ )?(?:developer|engineer|designer|student|scientist|researcher|manager|analyst)\b",
)

_STRONG_IMPORTANCE = re.compile(
    r"\b(?:critical|critically|crucial|very important|extremely important|super important|really important|"
    r"absolutely|vital|top priority|high priority|urgent|asap|never ever|under no circumstances|"
    r"life[- ]threatening)\b",
    _F,
)
_MILD_IMPORTANCE = re.compile(r"\b(?:important|essential|make sure|priority)\b", _F)

# Words that are cues rather than topics: kept out of tags.
_TAG_STOP = frozenset(
    _words(
        """
    prefer prefers preferred like likes love loves hate hates dislike enjoy want wants wanna need
    needs must never always please decided decide agreed chose chosen picked going let let's we'll
    keep bad uses runs
    i'll i'd we're i've we've don't doesn't didn't can't cannot won't isn't aren't wasn't shouldn't
    mustn't use using used today tomorrow now week weekend month year day days hours hour
    temporarily temporary todo remind learn learning get better critical important remember forget
    also btw really very much allowed has have got just still make sure monday tuesday wednesday
    thursday friday saturday sunday january february march april may june july august september
    october november december jan feb mar apr jun jul aug sep sept oct nov dec next last end due
    deadline by until till only ok okay yes thing things stuff lot something anything everything
    favourite favorite rather stop time times again wrong mistake made think want going
    """
    )
)


# -- one statement ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Judgement:
    type: MemoryType
    confidence: float
    scope: Literal["project", "user"]
    expires_at: datetime | None = None


_PROJECT_VAGUE = frozenset(
    _words(
        """
    working building using work build run running making developing it this that something stuff
    """
    )
)
_RESCHEDULED = re.compile(
    r"\b(?:moved|pushed|postponed|changed|shifted|extended|delayed|rescheduled|bumped|slipped)\b.*?\bto\b", _F
)


def _is_command(s: str) -> bool:
    """An imperative for this reply ("write a function"), unless meant to last or for a while."""
    if _COMMAND_START.match(s) is None:
        return False
    lasting = bool(_DURABLE.search(s) or _STYLE_DURABLE.search(s) or _STOP.match(s) or _WITH_ME.search(s))
    return not (lasting or _TEMPORARY.search(s))


# A flag said of someone else ("my coworker's cousin is severely allergic") or denied ("not life
# threatening, just hives") is no flag of the user's.
_SOMEONE_ELSES = re.compile(r"\bmy \w+(?:'s|s')\s", _F)
_FLAG_INTRODUCES = re.compile(r"\s*(?:that\b|this\b|[:,—–-])", _F)
_DENIED = re.compile(r"\b(?:not|isn't|is not|non|no)[\s-]+$", _F)


def _critical_flag(s: str) -> bool:
    """Whether ``s`` flags something as vital: "always remember" or "never forget" said of the
    user's own life (in English, a first person must be there: not "Never forget the Alamo",
    "Always remember to hydrate, folks!"), a severe allergy, anaphylaxis."""
    flag = _CRITICAL.search(s)
    if flag is None or _DENIED.search(s, max(0, flag.start() - 8), flag.start()):
        return False
    if _TERSE_FLAG.match(s) or not in_english(s):
        return True
    if _SOMEONE_ELSES.search(s):
        return False
    # "Always remember that the prod DB has no replica", "never forget: ...": the flag introduces
    # what follows; "always remember to hydrate", "never forget the Alamo" are sayings.
    return _FIRST_PERSON.search(s) is not None or _FLAG_INTRODUCES.match(s, flag.end()) is not None


def _judge(s: str, now: datetime, dated: str | None = None) -> _Judgement | None:
    """The one memory a cleaned statement makes, or None (question, chatter, command, no cue).
    ``dated``: the statement with its date words in English (``readable_dates``), read for its dates."""
    if not s or len(s) > MAX_SENTENCE_CHARS or not _WORD_RE.search(s):
        return None
    if _looks_like_code(s) or _is_small_talk(s) or is_question(s):
        return None
    dated = s if dated is None else dated
    lasting = bool(_DURABLE.search(s) or _STYLE_DURABLE.search(s) or _STOP.match(s))
    # ("I'd rather pay more than sit in an airport for 4 hours": a taste, not a state for 4 hours)
    # ("I'm in Sorvik for a two-week work trip")
    temporary = (
        bool(_TEMPORARY.search(dated) or dates.stay_span(dated))
        and not _RATHER.search(s)
        and not tells_past_event(s)
    )
    command = _is_command(s)
    if _ONE_OFF.search(s) and not _DURABLE.search(s):
        return None
    personal_scope: Literal["project", "user"] = "project" if _PROJECT_MARKER.search(s) else "user"
    health_scope: Literal["project", "user"] = (
        "user" if _HEALTH.search(s) and personal_scope == "user" else "project"
    )

    if _CRITICAL_PREFIX.match(s) or _critical_flag(s) or _vital_flag(s) or _TERSE_IMPORTANCE.match(s):
        return _Judgement(MemoryType.CRITICAL, 0.95, health_scope)
    if _MISTAKE.search(s):
        return _Judgement(MemoryType.MISTAKE, 0.85, "project")
    if not command and (_NO_STYLE.match(s) or (_WITH_ME.search(s) and _COMMAND_START.match(s))):
        return _Judgement(MemoryType.PREFERENCE, 0.8, "user")  # "use metric units with me"
    if command:  # "write a function", "fix this bug": a request for this reply, unless it states a plan
        if _LEARNING.search(s):
            return _Judgement(MemoryType.LEARNING_GOAL, 0.85, "user")
        if _TASK.search(s):
            return _Judgement(MemoryType.TASK, 0.8, "project")
        return None
    if temporary and _CURRENT_STATE.match(s) and (until := dates.temporary_expiry(dated, now)) is not None:
        # "I'm working from Lyon until the end of the month": a state that ends, not a task due
        return _Judgement(MemoryType.TEMPORARY, 0.85, "project", until)
    deadline = _deadline(dated, now)
    if deadline is not None:
        explicit = re.search(r"\b(?:due|deadline)\b", s, _F) is not None
        return _Judgement(MemoryType.DEADLINE, 0.9 if explicit else 0.8, "project", deadline)
    if temporary and (until := dates.temporary_expiry(dated, now)) is not None:
        return _Judgement(MemoryType.TEMPORARY, 0.85, "project", until)
    if _LEARNING.search(s):
        return _Judgement(MemoryType.LEARNING_GOAL, 0.9, "user")
    if _TASK.search(s) and not _TASK_NOT.search(s):
        return _Judgement(MemoryType.TASK, 0.85, "project")
    if _DECISION.search(s) and not _HEDGE.search(s):
        return _Judgement(MemoryType.DECISION, 0.9, "project")
    style = _STYLE.search(s) is not None
    preference = _PREFERENCE.search(s) is not None
    if not _CONSTRAINT_NOT.search(s):
        if _CONSTRAINT_STRONG.search(s) and not (style and preference):
            return _Judgement(MemoryType.CONSTRAINT, 0.9, health_scope)
        if _CONSTRAINT.search(s) and (not preference or (_PLEASE_RULE.match(s) and not style)):
            if style:  # "never use emojis", "always answer in English": how to talk to this user
                return _Judgement(MemoryType.PREFERENCE, 0.8, personal_scope)
            confidence = 0.85 if re.search(r"\b(?:never|cannot|can't|can not)\b", s, _F) else 0.75
            return _Judgement(MemoryType.CONSTRAINT, confidence, health_scope)
    if preference and _has_preference_object(s):
        confidence = 0.7 if re.search(r"\bi (?:always|never|usually|tend to|typically)\b", s, _F) else 0.9
        return _Judgement(MemoryType.PREFERENCE, confidence, personal_scope)
    if lasting and _COMMAND_START.match(s):
        # A lasting instruction without a named cue ("Keep answers short", "Document every endpoint").
        if style or _STYLE_DURABLE.search(s):
            return _Judgement(MemoryType.PREFERENCE, 0.75, personal_scope)
        return _Judgement(MemoryType.CONSTRAINT, 0.7, "project")
    if _PROJECT.search(s) and not _HEDGE.search(s) and _has_topic(s, _PROJECT_VAGUE):
        return _Judgement(MemoryType.PROJECT, 0.75, "project")
    return None


def _date_in(s: str, now: datetime) -> dates.DateMatch | None:
    """The date ``s`` names, unless it names a schedule that repeats ("our release day is Tuesday",
    "standup is at 9am"): a time of day alone counts only after "by" or "before", and not as a
    daily bound ("I can only train before 7am")."""
    found = dates.find_date(s, now)
    if found is None or _RECURRING_DAY.search(s[: found.start]):
        return None
    if _CLOCK_ONLY.match(found.phrase) and (
        not _DEADLINE_BY.search(s[: found.start]) or _bounds_every_day(s, found)
    ):
        return None
    return found


def _bounds_every_day(s: str, found: dates.DateMatch) -> bool:
    """A time of day that bounds what the user can do every day ("i can only train before 7am"):
    neither due nor the end of a state."""
    return _CLOCK_ONLY.match(found.phrase) is not None and _DAILY_BOUND.search(s[: found.start]) is not None


def _deadline(s: str, now: datetime) -> datetime | None:
    """The due date when ``s`` states a deadline: a date plus a deadline cue ("due", "by", "ships", ...)."""
    found = _date_in(s, now)
    if found is None or _span_of_dates(s, now):
        return None
    if not (
        _DEADLINE_CUE.search(s[: found.end])
        or _DEADLINE_NAMED_AFTER.match(s, found.end)
        or _DEADLINE_BY.search(s[: found.start])
        or _DEADLINE_PHRASE.match(found.phrase)
        or _DUE_BY_THEN.search(s, found.end)
        # "remind me to water the plants on Saturday": due then ("... this year" names no day)
        or (
            _REMIND.search(s[: found.start])
            and (_names_the_day(found.phrase) or _WEEKDAY_NAME.search(found.phrase))
        )
    ):
        return None
    moved = _RESCHEDULED.search(s)
    if moved is not None and moved.end() <= found.start + len(found.phrase) + 200:
        later = dates.find_date(s[moved.end() :], now)
        if later is not None:
            return later.when  # "the demo moved from Friday to Monday": the new date counts
    return found.when


# ("Reminder for me: RSVP to the christening within 9 days": due then, not a task kept forever)
_REMIND = re.compile(rf"\bremind me\b|{_REMINDER_LABEL}", _F)


def _span_of_dates(s: str, now: datetime) -> bool:
    """ "Offline from the 3rd to the 10th": a state that holds for a while, not a due date (unlike
    "the launch slipped from March 10 to March 24", which moves one)."""
    return dates.range_end(s, now) is not None and not _RESCHEDULED.search(s)


def _has_topic(s: str, vague: frozenset[str]) -> bool:
    return any(w not in vague and w not in _TAG_STOP and "'" not in w for w in query_words(s))


def _has_preference_object(s: str) -> bool:
    """False for "I love it", "I like that", "I love you": reactions, not lasting preferences."""
    m = _PREFERENCE_OBJECT.search(s)
    if m is None:
        return True  # cues such as "please always ...", "call me ...", "from now on ..."
    rest = [w for w in query_words(m.group("rest")) if w not in _PREFERENCE_VAGUE]
    return bool(rest)


def _importance(s: str, memory_type: MemoryType) -> float:
    base = DEFAULT_IMPORTANCE[memory_type]
    if _STRONG_IMPORTANCE.search(s):
        return round(max(base, 0.9), 2)
    if _MILD_IMPORTANCE.search(s):
        return round(min(1.0, base + 0.1), 2)
    return base


_TAG_CUES = re.compile(r"\b(?:let's\s+)?go(?:ing)?\s+with\b|\bgo(?:es)?[- ]live\b", _F)


def _tags(s: str) -> list[str]:
    """A few lowercase topic keywords: no stopwords, no cue words, one word per stem."""
    tags: list[str] = []
    stems: set[str] = set()
    for word in query_words(_TAG_CUES.sub(" ", s)):
        if word in _TAG_STOP or "'" in word or len(word) < 2 or not any(ch.isalpha() for ch in word):
            continue
        if word.isdigit() or len(word) > 30:
            continue
        key = stem(word)
        if key in stems:
            continue
        stems.add(key)
        tags.append(word)
        if len(tags) >= MAX_TAGS:
            break
    return tags


# -- forget requests --------------------------------------------------------------------------

_FORGET = re.compile(
    r"^(?:please\s+|pls\s+|kindly\s+|(?:can|could|would|will)\s+you\s+(?:please\s+)?|i want you to\s+|"
    r"i'd like you to\s+|you can\s+|you should\s+)?"
    r"(?:forget|unlearn|stop remembering|don't remember|do not remember|remove from (?:your )?memory|"
    r"(?:delete|remove|erase|drop|clear)\s+(?:the\s+|that\s+|my\s+|your\s+|any\s+)?(?:memory|memories|note|"
    r"notes|fact|facts|record)(?:\s+(?:about|that|of|saying))?|"
    r"(?:i\s+)?(?:don't|do not)\s+want\s+(?:that|this|it)\s+(?:kept|stored|saved|remembered|recorded))"
    r"\b(?P<target>.*)$",
    _F,
)
_FORGET_LEAD = re.compile(
    r"^(?:\s*(?:about|that|what i (?:said|told you|mentioned) (?:about|regarding)?|everything (?:about|on)|"
    r"the fact that|all about|any(?:thing)? about|it|please|my|the|i said|i told you))+\b",
    _F,
)
_FORGET_GENERIC = frozenset(
    stem(w)
    for w in _words(
        """
        memory memories note notes fact facts said told tell everything anything thing things
        remember forget info information detail details stuff about mention mentioned record please
        anywhere anymore
    """
    )
)


def _forget_target(s: str) -> str | None:
    """The thing to forget when ``s`` asks to forget something, "" for a bare "forget it"; else None."""
    m = _FORGET.match(s)
    if m is None:
        return None
    target = _FORGET_LEAD.sub("", m.group("target").strip(" ,:;.!?")).strip(" ,:;.!?")
    return target


def _match_forget(target: str, existing: list[Memory]) -> Memory | None:
    wanted = {t for t in content_terms(target) if t not in _FORGET_GENERIC}
    if not wanted:
        return None
    scored: list[tuple[float, int, Memory]] = []
    for index, memory in enumerate(existing):
        content = memory.content if isinstance(memory.content, str) else ""
        terms = set(content_terms(content)) | {stem(t.lower()) for t in memory.tags if isinstance(t, str)}
        shared = len(wanted & terms)
        if not shared:
            continue
        coverage = shared / len(wanted)
        jaccard = shared / len(wanted | terms)
        if coverage < 0.5:
            continue
        scored.append((0.75 * coverage + 0.25 * jaccard, -index, memory))
    if not scored:
        return None
    scored.sort(key=lambda item: (item[0], item[1]), reverse=True)
    best = scored[0]
    if best[0] < FORGET_MIN_SCORE:
        return None
    if len(scored) > 1 and best[0] - scored[1][0] < FORGET_MIN_MARGIN:
        return None  # two memories fit about as well: not clear which one the user means
    return best[2]


# -- the editor -------------------------------------------------------------------------------


@dataclass(slots=True)
class _Statement:
    text: str
    judgement: _Judgement | None
    forget: str | None  # the forget target, when the statement is a forget request
    substantive: bool  # a plain statement with content words (can explain a terse mistake)
    flags: ShapeFlags | None = None
    listed: bool = False  # an item of a to-do list: a task, whatever the learned judgement says
    dated: str = ""  # the text with its date words in English (readable_dates); "" = the text
    sentence: str = ""  # the whole sentence, when the text is one of its clauses

    def __post_init__(self) -> None:
        if not self.dated:
            self.dated = self.text


def _listed_item(s: str, kind: str, now: datetime) -> _Judgement | None:
    """An item of a to-do list ("order printer ink", "bins out tuesday"): a task, due on its day.
    An item of a list about the user ("live in Porto", "38, left-handed"): what the rules read in
    it ("vegetarian, no nuts please" is a constraint), else a fact; a question in it, nothing."""
    if kind == LISTED_TASK:
        due = _deadline(readable_dates(s), now)
        if due is not None:
            return _Judgement(MemoryType.DEADLINE, 0.85, "project", due)
        return _Judgement(MemoryType.TASK, 0.85, "project")
    if is_question(s):
        return None
    return _judge(s, now, readable_dates(s)) or _Judgement(MemoryType.FACT, 0.8, "user")


def _statements(message: str, listed: dict[str, str]) -> list[tuple[str, str, str | None]]:
    """The sentences of ``message``, each parted into the clauses that tell a thing of their own
    ("I'm vegan and my partner hates mushrooms": two), each with the sentence it was parted from
    ("" when it is the sentence whole) and, for an item of a list, what the list makes it
    (``listed`` holds the bulleted lists' items; a list on one line is parted into its items here)."""
    out: list[tuple[str, str, str | None]] = []
    for s in (clean_statement(sentence) for sentence in split_sentences(message)):
        if items := inline_items(s):
            out += [(item, "", LISTED_TASK) for item in items]
        elif s in listed:
            out.append((s, "", listed[s]))
        else:
            parts = clauses(s)
            out += [(part, s if len(parts) > 1 else "", None) for part in parts]
    return out


def _rejoin(statements: list[_Statement]) -> None:
    """A clause kept alone from its sentence becomes the sentence again: parting it served to keep
    two things of one sentence apart, and alone it loses what the rest said of it ("Marco is an
    architect" without "we're thinking about a trip"), which later judgements read."""
    kept: dict[str, list[_Statement]] = {}
    for st in statements:
        if st.sentence and st.judgement is not None:
            kept.setdefault(st.sentence, []).append(st)
    for sentence, group in kept.items():
        if len(group) == 1:
            group[0].text, group[0].dated = sentence, readable_dates(sentence)


def _read(message: str, now: datetime) -> list[_Statement]:
    statements: list[_Statement] = []
    listed = listed_items(message) if ":" in message and "\n" in message else {}
    for raw, sentence, kind in _statements(message, listed):
        s = clean_statement(raw)
        if not s:
            continue
        if kind is not None or (listed and is_list_header(s)):
            # a list: each item a task or a fact of the user's, its header ("list for this week") nothing
            item = _listed_item(s, kind, now) if kind is not None else None
            flags = ShapeFlags(
                question=False, small_talk=item is None, code=False, has_date=False, command=False
            )
            statements.append(_Statement(s, item, None, item is not None, flags, listed=item is not None))
            continue
        target = _forget_target(s)
        if target is not None:
            statements.append(_Statement(s, None, target, False))
            continue
        dated = readable_dates(s)
        judgement = _judge(s, now, dated)
        # ("Remember that song from the 90s that went ...? what was it called": asked, not a memo)
        memo = _MEMO_LEAD.match(s) if judgement is None and not is_question(s) else None
        if memo is not None:
            # "Remember that my sister is called Ana": what follows is the memory; without a
            # cue of its own it is kept as a plain fact.
            s = memo.group("rest").strip(" ,:;")
            dated = readable_dates(s)
            judgement = _judge(s, now, dated)
            if judgement is None and s and not is_question(s) and _has_topic(s, _PREFERENCE_VAGUE):
                judgement = _Judgement(MemoryType.PROJECT, 0.6, "project")
        flags = ShapeFlags(
            question=is_question(s),
            small_talk=_is_small_talk(s),
            code=_looks_like_code(s),
            has_date=dates.names_cjk_date(s, now) if mostly_cjk(s) else _date_in(dated, now) is not None,
            command=_is_command(s),
        )
        substantive = (
            len(s) <= MAX_SENTENCE_CHARS
            and not (flags.question or flags.code or flags.small_talk)
            and len(query_words(s)) >= 2
        )
        statements.append(_Statement(s, judgement, None, substantive, flags, dated=dated, sentence=sentence))
    return statements


def read_statements(message: str, now: datetime) -> list[tuple[str, str | None, ShapeFlags]]:
    """Each statement the editor reads in ``message``: its text, the rules' type (None: nothing)
    and its shape, exactly as the learned judgement sees them (the training script uses this)."""
    return [
        (st.text, st.judgement.type.value if st.judgement else None, st.flags)
        for st in _read(message, _aware(now))
        if st.forget is None and st.flags is not None
    ]


_TERSE_FLAG = re.compile(
    r"^(?:please\s+)?(?:always remember|never forget|don't (?:ever )?forget|do not forget)\s+"
    r"(?:this|that|it)\W*$"
    r"|^(?:nunca lo olvides|no lo olvides nunca|n'oublie(?:z)? jamais(?: ça| cela)?|ne l'oublie(?:z)? jamais|"
    r"vergiss (?:das|es) (?:nie|niemals)|non dimenticar(?:lo|e) mai|nunca (?:se )?esque[çc]a(?: disso)?|"
    r"vergeet (?:dit|het) nooit)\W*$",
    _F,
)
# "... This is critical.": raises the statement before it when that one is kept already (a flag of
# importance said after small talk, "Nice weather. That's really important.", raises nothing).
_TERSE_IMPORTANCE = re.compile(rf"^(?:and\s+)?(?:this|that|it)(?:'s| is)\s+(?:\w+\s+)?{_IMPORTANCE}\W*$", _F)
# A statement the cue rules typed is kept at this keep probability, whatever threshold the model
# that judged it has (the rules' cue is evidence of its own, but not enough alone). Lowered from 0.5
# when the spent check sets joined training (2026-12-05, fifth session): the new model scores "For
# today only, answer in French." 0.41; validation messages_check7 / check8 and the messages check
# half are unchanged at 0.4, the LoCoMo check half stores one more (precision 0.808 -> 0.792).
# 0.39 since the seventh session's retraining scored it 0.395; at 0.38 the LoCoMo check half stored
# one more again (0.800 -> 0.784), at 0.39 every set measures as at 0.40. 0.32 since the eleventh
# session's retraining (more training sets) scored 'My favourite quote is "stay hungry, stay
# foolish"' 0.33: the validation sets measure as at 0.39 but messages_check20 (0.843 / 0.723 ->
# 0.844 / 0.731); of the tune sets, chat_tune1 stores once more where nothing was expected.
# Back to 0.5 in the twenty-sixth session, from every memory 46 read sets stored with the start
# code (5,845): of the rule-backed ones kept below even odds, 5 were right and 18 wrong ("I always
# lose track", "I always mix them up", "My horoscope says I should never ..."); from 0.5 to 0.6,
# 10 right and 4 wrong. The lowerings above each kept one statement. A statement the rules gave
# no type but that names a day ahead or the user's own condition keeps the old bar: of those kept
# between it and the model's own threshold, 16 were right and 2 wrong ("Working from home today
# because of the bus strike", 0.41).
_RULE_BACKED_KEEP = 0.5
_EVIDENCE_BACKED_KEEP = 0.32
_SECOND_MEMORY_KEEP = 0.9  # a message's second and later memories need this keep probability
# (both chosen by five-fold runs on the tune items, scripts/cv_statement_classifier.py: from 0.45
# and 0.85, messages 0.875 / 0.854 -> 0.896 / 0.842 and locomo 0.836 / 0.849 -> 0.873 / 0.833,
# precision / recall; 0.3-0.7 and 0.75-1.0 tried). The second memory's bar went back to 0.9 with
# the 2026-12-05 model (keep target 0.85): at 0.95 it dropped the third of "I prefer tabs. We
# decided on PostgreSQL. The report is due 2026-03-06." (fold runs: messages 0.897 / 0.854 ->
# 0.890 / 0.890, locomo 0.857 / 0.818 -> 0.844 / 0.818). With the keep target raised to 0.88
# (2026-12-05, third session, then 0.87: the keep model's own threshold went from 0.45 to 0.5-0.6), the fold
# runs were the same at 0.45, 0.5 and 0.6 for the rules' bar; 0.5 keeps what the rules state
# plainly ("For today only, answer in French.", kept at 0.56).
# "[shares an image: ...]": an annotation of the turn, not something the user said
_ANNOTATION = re.compile(r"^\[[^\]]*\]?$")
# The rules' type stands when the type model finds it at least this likely (chosen on tune). A
# deadline or a temporary state the rules read from a date is held to it too: "no food before
# noon" is not due at noon (five-fold runs on the tune items: messages 0.850 / 0.829 -> 0.875 /
# 0.854, locomo unchanged, against letting every dated type stand). Raised from 0.3 on 2026-12-05:
# the five-fold runs were flat from 0.4 to 0.75 (messages 0.908 -> 0.921 precision, locomo
# unchanged); the validation sets chose 0.6 in that range (messages_check2 0.852 -> 0.861).
_RULE_TYPE_AGREES = 0.6
# A statement about the user themself ("my daughter", "I'm vegetarian") is user-wide; one about
# something else ("Orion stores its data in MongoDB") belongs to the project it was said in.
_FIRST_PERSON = re.compile(
    r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine|myself)\b"
    r"|我(?!们)|私|僕|俺|저(?:는|의|가|도)|제가|나(?:는|의|도)|내가",  # I / my in Chinese, Japanese, Korean
    _F,
)
# The user's work, which belongs to the project it is said in: "my supervisor", "my editor", "my
# book", a creative work and its people ("my podcast co-host", "my narrator", "for my Quarrymoor
# campaign"), and a note headed by the work it is about ("Script notes: ...", "Screenplay: ...").
_WORK_NOUN = (
    r"(?:supervisor|advisor|adviser|manager|boss|colleagues?|co-?workers?|client|clients|editor|agent|"
    r"publisher|reviewers?|thesis|dissertation|manuscript|novel|book|paper|chapter|draft|podcast|"
    r"co-?hosts?|protagonist|antagonist|characters?|campaign|screenplay|script|episodes?|album|"
    rf"{_PROJECT_NOUN})"
)
_MY_WORK = re.compile(
    rf"\b(?:my|our)\s+(?:\w+\s+)?{_WORK_NOUN}\b|^\s*(?:\w+\s+)?{_WORK_NOUN}(?:\s+notes)?\s*:",
    _F,
)


def _about_the_user(text: str) -> bool:
    """Whether a statement speaks of the user themself (user-wide) rather than of their work."""
    return _FIRST_PERSON.search(text) is not None and _MY_WORK.search(text) is None


_NEVER_LEARNED = frozenset({NONE, MemoryType.CRITICAL.value})  # critical needs the user's own flag
# The types the type model gives a state that holds, which a stated short while makes temporary.
_LASTING_UNLESS_TIMED = frozenset({MemoryType.CONSTRAINT, MemoryType.PREFERENCE, MemoryType.FACT})
_A_DAY = timedelta(days=1)
# A learned temporary state needs an end the statement states, this soon at most.
_LEARNED_TEMPORARY_HORIZON = timedelta(days=45)

# Types the learned judgement may give a statement on its own; critical needs the user's flag.
_LEARNED_SCOPE: dict[MemoryType, Literal["project", "user"]] = {
    MemoryType.FACT: "user",
    MemoryType.PREFERENCE: "user",
    MemoryType.LEARNING_GOAL: "user",
    MemoryType.CONSTRAINT: "user",
}


def _learned(statements: list[_Statement], classifier: StatementClassifier, now: datetime) -> None:
    """Let the learned judgement decide whether each statement is kept, and its type.

    The rules keep the last word on what they are sure of: a user's critical flag is kept as
    critical, and a kept statement keeps the rules' type (with its due date or end) when the type
    model finds it plausible. Statements too long, code, or forget requests are left to the rules.
    """
    judged: list[_Statement] = []
    for st in statements:
        if st.forget is not None or st.flags is None or st.listed or len(st.text) > MAX_SENTENCE_CHARS:
            continue
        rule_type = st.judgement.type.value if st.judgement else None
        if rule_type == MemoryType.CRITICAL.value:
            continue  # the user flagged it as vital
        if _never_kept(st, rule_type):
            st.judgement = None  # decided without the judgement (which may cost e5's vector)
            continue
        judged.append(st)
    if not judged:
        return
    rule_types = [st.judgement.type.value if st.judgement else None for st in judged]
    # (the bars tell the classifier which verdicts e5's vector could change: a second memory's too)
    keep_bars = (_RULE_BACKED_KEEP, _SECOND_MEMORY_KEEP) if len(judged) > 1 else (_RULE_BACKED_KEEP,)
    bars = RuleBars(keep_bars, _RULE_TYPE_AGREES)
    verdicts = classifier.judge([st.text for st in judged], rule_types, [st.flags for st in judged], bars)
    kept: list[tuple[float, _Statement]] = []
    ruled: set[int] = set()  # (ids of) the kept statements that keep the rules' judgement
    for st, rule_type, verdict in zip(judged, rule_types, verdicts, strict=True):
        if rule_type is not None:
            threshold = _RULE_BACKED_KEEP
        elif _dated_ahead(st, verdict, now) or _tells_own_condition(st.text) or _states_a_rate(st.text):
            threshold = _EVIDENCE_BACKED_KEEP
        else:
            threshold = verdict.keep_threshold
        if verdict.keep < threshold:
            st.judgement = None
            continue
        kept.append((verdict.keep, st))
        if rule_type is not None and (
            verdict.types[LABELS.index(rule_type)] >= _RULE_TYPE_AGREES
            or (_due_by_rules(st) and not _goal_with_a_horizon(st, verdict, now))
        ):
            ruled.add(id(st))
            continue  # their type is plausible: keep the rules' judgement (with its date, if any)
        ends = _temporary_end(st.dated, now)
        span = _span_of_dates(st.dated, now)
        ranked = [LABELS[i] for i in np.argsort(-verdict.types) if _learnable(LABELS[i], st, now, ends, span)]
        memory_type = MemoryType(ranked[0])
        if (
            memory_type in _LASTING_UNLESS_TIMED
            and ends is not None
            and ends >= now + _A_DAY
            and (dates.states_a_while(st.dated) or dates.spans_a_period(st.dated))
        ):
            # a rule or a state said to hold this long from now, soon over ("the dentist says soft
            # foods only for 5 days", "I'm off sugar for three weeks"): a passing state (not a
            # few minutes or hours: "stuck behind a tractor for twenty minutes")
            memory_type = MemoryType.TEMPORARY
        until = ends if memory_type is MemoryType.TEMPORARY else None
        if memory_type in _DUE_WHEN_DATED and not span and (day := _due_ahead(st, memory_type, now)):
            # "the application closes next Tuesday at noon", "dentist tomorrow at 8:15": a day to
            # keep in view, due then (a deadline leaves the context after its day)
            memory_type, until = MemoryType.DEADLINE, day
        if memory_type is MemoryType.DEADLINE and until is None:
            # a deadline the type model read falls due on the day the rules read (known before the
            # second memories are weighed: "... Aunt Hedda's 70th is next Saturday" is dated)
            until = _learned_due(st, now)
        personal = _LEARNED_SCOPE.get(memory_type, "project") if _about_the_user(st.text) else "project"
        scope: Literal["project", "user"] = "project" if _PROJECT_MARKER.search(st.text) else personal
        st.judgement = _Judgement(memory_type, round(verdict.keep, 3), scope, until)
    _drop_second_memories(kept, ruled)
    for _, st in kept:  # (a deadline the rules typed without its day: the day the rules read)
        judgement = st.judgement
        if judgement is not None and judgement.type is MemoryType.DEADLINE and judgement.expires_at is None:
            st.judgement = dataclasses.replace(judgement, expires_at=_learned_due(st, now))
        elif (
            judgement is not None
            and judgement.type is MemoryType.PROJECT
            and judgement.expires_at is None
            and (day := _project_day(st, now))
        ):
            st.judgement = dataclasses.replace(judgement, type=MemoryType.DEADLINE, expires_at=day)


def _project_day(st: _Statement, now: datetime) -> datetime | None:
    """The day of an undertaking told as one day ahead ("Marathon relay is this Sunday, I'm
    running the third leg!"): an event, due then, not a lasting project. One that starts on its
    day ("renovating the bathroom starting next Monday") lasts past it."""
    found = _date_in(st.dated, now)
    if found is None or _STARTS_ON.search(st.dated[: found.start]):
        return None
    return _event_ahead(st, now)


# what starts on a day, and so lasts past it
_STARTS_ON = re.compile(r"\b(?:start(?:s|ing)?|begin(?:s|ning)?|from|kicks? off)\s+(?:on\s+)?$", _F)


def _tells_own_condition(text: str) -> bool:
    """Whether a statement names a health condition of the user's or their family's ("penicillin
    allergy here", "Miso is diabetic", "I have coeliac disease"): a safety fact is kept at the
    rules' keep bar, as their cue is evidence of its own (the type model alone held "penicillin
    allergy here" and "I have type 1 diabetes" at 0.63, below its bar)."""
    if _CONDITION.search(text) is None:
        return False
    if not in_english(text):
        return True  # (whose it is is read in English only: "Fıstığa karşı ciddi alerjim var")
    return _FIRST_PERSON.search(text) is not None or _THEIRS.search(text) is not None


def _states_a_rate(text: str) -> bool:
    """Whether a statement gives an amount that recurs ("Rent on the flat is 1,450 pounds a month",
    "I put 300 a month into my pension", "groceries have to stay under 120 a week"): the money and
    habits a user's later questions build on are kept at the rules' evidence bar (the type model
    alone held "Rent on the flat is 1,450 pounds a month, due on the 1st." at 0.53, below its bar,
    and the rent rise a later turn told had nothing to replace)."""
    return _RATE.search(text) is not None and not is_question(text)


# An amount per period: "1,450 pounds a month", "$80 a week", "250/month", "18k per year"
_RATE = re.compile(
    r"\d[\d,.]*\s*(?:k|pounds?|quid|euros?|dollars?|bucks|€|£|\$)?\s*"
    r"(?:a|an|per|each|every|/)\s*(?:month|week|year|fortnight|mo|wk|yr|annum)\b",
    _F,
)


# Whose a condition is beside the user's own words: "we", "our", "here" ("nut allergy here"), or
# someone named ("Miso is diabetic")
_THEIRS = re.compile(r"\b(?:im|we|we're|our|us|here)\b|(?-i:\b[A-Z][a-z]+\s+(?:is|has|gets|can't))", _F)


# A deadline this far ahead that the type model reads as a learning goal is the goal's horizon
_GOAL_HORIZON = timedelta(days=90)


def _goal_with_a_horizon(st: _Statement, verdict: Judged, now: datetime) -> bool:
    """A learning goal the rules read as a deadline for the far date it names ("I want to get
    conversational in Korean before the end of next year"): the goal is what to keep, its date
    only a horizon (kept as a deadline, it was a goal no question about learning found)."""
    judgement = st.judgement
    return (
        judgement is not None
        and judgement.expires_at is not None
        and judgement.expires_at > now + _GOAL_HORIZON
        and verdict.types[LABELS.index(MemoryType.LEARNING_GOAL.value)] >= _RULE_TYPE_AGREES
    )


def _due_by_rules(st: _Statement) -> bool:
    """A deadline the rules read with its due day ("switch energy supplier by the end of this
    month", "the tax payment is due in ten days"): a cue and a day ahead are evidence the type
    model's doubt does not outweigh (it re-typed such statements as tasks or facts, and they lost
    their day)."""
    judgement = st.judgement
    return (
        judgement is not None and judgement.type is MemoryType.DEADLINE and judgement.expires_at is not None
    )


def _drop_second_memories(kept: list[tuple[float, _Statement]], ruled: set[int]) -> None:
    """One message usually holds one thing worth keeping; the rest of what it says stays in its
    episode. A second memory needs the judgement to be sure of it, unless it is dated by the rules
    (:func:`_dated_by_rules`) or is a clause added with "and" to the sentence that gave the first
    memory (kept, the sentence is stored in its parts: "I'm vegetarian" and "my girlfriend can't
    stand olives"; else whole, :func:`_rejoin`). Not beside a short-lived first memory: "my
    sister's wedding is on Saturday and I still haven't written my toast" is all due on Saturday."""
    kept.sort(key=lambda pair: -pair[0])
    first = kept[0][1] if kept else None
    lasting = first is not None and first.judgement is not None and first.judgement.expires_at is None
    for keep, st in kept[1:]:
        sibling = lasting and first is not None and st.sentence == first.sentence and _added(first, st)
        safety = _tells_own_condition(st.text)  # ("We have two cats. Miso is diabetic.")
        if (
            keep < _SECOND_MEMORY_KEEP
            and not _dated_by_rules(st, id(st) in ruled)
            and not (sibling or safety)
        ):
            st.judgement = None


def _added(one: _Statement, other: _Statement) -> bool:
    """Whether two clauses of a sentence are joined by "and", which adds a thing ("I'm vegetarian
    and my girlfriend can't stand olives"); a bare comma mostly goes on about the same one ("I play
    bass in a covers band, we gig about once a month"; "my goal is to learn to swim, I never
    learned as a kid"), unless the sentence lists its clauses ("I work nights, I'm diabetic,
    and I live with my aunt": :func:`lists_clauses`)."""
    if lists_clauses(one.sentence):
        return True
    where = {id(st): one.sentence.find(st.text) for st in (one, other)}
    if -1 in where.values():
        return False  # (a clause rewritten when read, "Remember that ...": its place is not known)
    first, second = sorted((one, other), key=lambda st: where[id(st)])
    gap_start = where[id(first)] + len(first.text)
    return _AND.search(one.sentence, gap_start, max(gap_start, where[id(second)])) is not None


_AND = re.compile(r"\band\b", _F)


# A day said as ahead that is this close is an event to keep in view, not a fact to keep for good.
_EVENT_HORIZON = timedelta(days=60)


# Types the learned judgement gives a statement that a day ahead makes a deadline: a fact of an
# event soon ("dentist tomorrow"), an undertaking of one day ("the bake sale next Saturday"), and an
# obligation or a to-do said with its limit ("来週の水曜日
# までに年賀状を50枚書かないといけない": 50 cards to write by next Wednesday).
_DUE_WHEN_DATED = frozenset({MemoryType.FACT, MemoryType.PROJECT, MemoryType.CONSTRAINT, MemoryType.TASK})


def _due_ahead(st: _Statement, memory_type: MemoryType, now: datetime) -> datetime | None:
    """The day a learned fact, project, constraint or task falls due: an event ahead told as a
    fact or an undertaking ("Hosting my dad's 70th birthday party this Saturday", "the community
    garden cleanup next Saturday": a day, not a lasting project), an obligation's limit ("by next
    Wednesday")."""
    if memory_type is MemoryType.FACT:
        return _event_ahead(st, now)
    if memory_type is MemoryType.PROJECT:
        return _project_day(st, now)
    return _deadline(st.dated, now)


def _event_ahead(st: _Statement, now: datetime) -> datetime | None:
    """The day ``st`` names when it is one day ahead, soon, in words that look ahead ("tomorrow",
    "next Tuesday", "is on Saturday", "in ten days"); else None."""
    found = _date_in(st.dated, now)
    if found is None or _CALENDAR_DAY.search(found.phrase):
        return None
    if _CONDITION.search(st.text):
        return None  # "in-laws are coming Saturday and my father-in-law is coeliac": that outlives the day
    if dates.starts_then(st.dated, found):
        return None  # "rent goes up from the 1st of next month": a change that outlives the day
    if tells_past_event(st.text) and not _RESCHEDULED.search(st.text):
        # ("we lost a box on the motorway, and by Sunday night we were sleeping in the new flat";
        # not "the airline moved my flight to saturday morning", a day ahead)
        return None
    # (a later day: what happened "today" is mostly news already, "I quit my job today")
    later_day = now.date() < found.when.date() <= (now + _EVENT_HORIZON).date()
    return found.when if later_day and _one_day_ahead(st.dated, found) else None


def _dated_ahead(st: _Statement, verdict: Judged, now: datetime) -> bool:
    """A statement the type model reads as a deadline with a date ahead written out ("The survey
    closes on 2026-03-05."), or as a temporary state with the end it states ("Working from home
    today"): its date is evidence of its own, as a rule's cue is."""
    likeliest = LABELS[int(np.argmax(verdict.types))]
    if likeliest == MemoryType.TEMPORARY.value:
        return _temporary_end(st.dated, now) is not None
    if likeliest != MemoryType.DEADLINE.value:
        return False
    return _learnable(likeliest, st, now, span=_span_of_dates(st.dated, now))


def _dated_by_rules(st: _Statement, ruled: bool) -> bool:
    """A deadline read with its due date, or a passing state the rules read (``ruled``: its
    judgement is theirs) with its end: kept beside a message's first memory at the plain keep bar
    ("I prefer tabs. The report is due 2026-03-06."; "I sprained my ankle and I'm on crutches for
    the next ten days": without the crutches kept with their end, the sentence stayed as a lasting
    memory and they read as current weeks on), or one that says how long it lasts (whoever read it:
    "Physio says no running for the next ten days" was dropped when the type model's agreement with
    the rules fell under its bar). Not a passing state only the type model read that names no
    while: "today I need help writing a retry wrapper" asks for this conversation."""
    judgement = st.judgement
    if judgement is None or judgement.expires_at is None:
        return False
    if judgement.type is MemoryType.TEMPORARY:
        return ruled or dates.states_a_while(st.dated)
    return judgement.type is MemoryType.DEADLINE


# Words that are not the user's own account of their life: a wish or a counterfactual ("If I won
# the lottery I'd buy an island"), and a quotation with its source ("... — Steve Jobs", "that's a
# line from a movie").
_HYPOTHETICAL = re.compile(
    r"^(?:hypothetically\b|"
    r"(?:even )?if (?:i|we) (?:ever |only |really |just )?(?:had|were|was|won|could|owned|lived|got|"
    r"didn't|did not|[a-z]+ed)\b.*"
    r"\b(?:i'd|i would|we'd|we would|i might|i could)\b|(?:imagine|what if|suppose|in another life)\b"
    # "Say I quit my job tomorrow and travelled for a year: ..."
    r"|(?:let's say|say|supposing|assuming) (?:i|we) (?:were|was|had|won|got|quit|lost|[a-z]+ed)\b)",
    _F,
)
# a quotation in double quotes, guillemets, or single quotes that are not apostrophes
_QUOTED = re.compile(r"[\"“«„]([^\"”»“]{8,300})[\"”»“]|(?<!\w)'([^'\n]{8,300})'(?!\w)")
_ATTRIBUTION = re.compile(
    r"[\"”»]\s*[—–-]+\s*[A-Z]|(?:^|\n)\s*[—–-]+\s*[A-Z][\w.]+(?:\s+[A-Z][\w.]+)*\s*$"
    # (a quotation's source, followed by the quotation: not "the quote from Tillerman Roofing is
    # valid until the 5th", a builder's price)
    r"|\b(?:a|the) (?:line|quote|quotation|lyric|saying) (?:from|by|of)\b(?=[^\"“«„'\n]*[:\"“«„'])"
    # 'In the song line "I left my heart in ..."', "the lyric 'I am the walrus'"
    r"|\b(?:a|the) (?:(?:song|poem|film|movie|book)\s+)?(?:line|lyrics?|verse|quote|quotation)"
    r"\s*[:,]?\s*[\"“«„']"
    r"|\bas (?!i\b|we\b|you\b)\w+ (?:once )?(?:said|put it)\b",  # "as Seneca said", not "as I said"
    _F,
)


_SOURCE_WORDS = 6  # a quotation's source is a name or a title, not a sentence of the user's
# Someone else's opinion reported ("My brother says crypto will 10x", "Someone at my gym swears
# creatine makes you bald", "Secondo mia zia, il basilico ..."): theirs, not the user's. What they
# say about the user ("my doctor says I need less salt") or a deadline it gives is kept.
_REPORTED = re.compile(
    r"^(?:(?:my|our|a|an|the|his|her|their)\s+(?:[\w'-]+\s+){0,3}?|(?:someone|somebody|people|everyone|"
    r"everybody|he|she|they)\b(?:\s+\w+){0,4}?\s+|(?!(?:it|this|that|there|i)\b)[A-Z][a-z]+\s+)"
    r"(?:says|said|swears|swore|thinks|reckons|claims|insists|believes|keeps saying|always says)\b"
    r"|^(?:someone|somebody|people|everyone|everybody)\b(?:\s+\w+){0,4}?\s+(?:told|tell|tells)\s+(?:me|us)\b"
    r"|^(?:secondo|según|selon|laut|segundo|volgens)\s",
    _F,
)
# News of a friend, a colleague or a neighbour that does not touch the user ("My colleague Ravi is
# flying to Osaka soon", "my coworker keeps microwaving fish"): theirs, not the user's. Family is
# the user's own life, and a boss's or a client's wish is usually the user's task.
_SOMEONE_ELSE = re.compile(
    r"^(?:(?:so|and|but|also|oh|btw|ugh|lol)\W+)*(?:my|our)\s+(?:best\s+|old\s+|new\s+)?"
    r"(?:friend|colleague|coworker|co-worker|neighbou?r|roommate|flatmate|housemate|classmate|"
    r"teammate|mate|buddy)s?(?:'s|’s)?\b",
    _F,
)


def _someone_elses_news(text: str) -> bool:
    said = _SOMEONE_ELSE.match(text)
    return said is not None and _FIRST_PERSON_AFTER.search(text, said.end()) is None


_FIRST_PERSON_AFTER = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine|myself|we|us|our)\b", _F)


# A plan only weighed, not made ("Not sure yet whether we'll do Christmas at home", "Maybe I'll
# repaint the kitchen this year, maybe not", "I might go tomorrow, or not", "haven't decided"):
# nothing the user holds yet.
_UNDECIDED = re.compile(
    r"^(?:(?:i'm |i am |we're |we are )?(?:still )?(?:not sure|unsure)(?: yet)? (?:whether|if)\b"
    r"|.*\bmaybe\b.*\bmaybe not\b|.*\b(?:i|we) (?:might|may)\b.*,\s*or not\b"
    r"|(?:i |we )?(?:haven't|have not) (?:yet )?decided\b"
    r"|(?:i'm |i am |we're |we are )?(?:still )?(?:undecided|torn between|on the fence)\b)",
    _F,
)


def _reported_opinion(st: _Statement, now: datetime) -> bool:
    said = _REPORTED.match(st.text)
    if said is None or (st.judgement is not None and st.judgement.type is MemoryType.DEADLINE):
        return False
    if _FIRST_PERSON_AFTER.search(st.text, said.end()) is not None:
        return False
    day = _date_in(st.text, now)  # "my sister says the wedding is on June 14th": a day to keep
    if day and _names_the_day(day.phrase):
        return False
    # what someone tells the user to do for a stated while is the user's passing state ("Dentist
    # says liquid diet only for the next five days"): kept, it ends when it says (not "my
    # horoscope says this week is great for money", nor "my dad insists you warm up the engine for
    # ten minutes")
    return not dates.states_a_while(st.text, days=True)


def _drop_borrowed(statements: list[_Statement], message: str, now: datetime) -> None:
    """Wishes, quotations, plans only weighed and other people's opinions store nothing typed,
    however much they sound like a fact or a flag."""
    attributed = _ATTRIBUTION.search(message) is not None
    worked_on = _WORK_ON_TEXT.search(message) is not None or _WORK_ON_QUOTED.search(message) is not None
    quotes = list(_QUOTED.finditer(message)) if attributed or worked_on else []
    quoted = [(q.group(1) or q.group(2)).lower() for q in quotes]
    pasted = _pasted_text(message)
    if pasted:  # the text pasted after a request to work on it is one more quotation
        quoted.append(pasted.lower())
        worked_on = True
    source = message[quotes[-1].end() :].lower() if quotes and attributed else ""  # "— Steve Jobs"
    for i, st in enumerate(statements):
        borrowed = (
            _HYPOTHETICAL.match(st.text) is not None
            or _bare_condition(st, statements[i + 1] if i + 1 < len(statements) else None)
            or _UNDECIDED.match(st.text) is not None
            or _reported_opinion(st, now)
            or _someone_elses_news(st.text)
            or (worked_on and _inside(st.text, quoted))  # 'Summarize this: "The committee decided ..."'
            or (_WORK_ON_QUOTED.match(st.text) is not None and any(q in st.text.lower() for q in quoted))
        )
        if attributed and not borrowed:
            text = st.text.lower().strip(" \"“”«»„.!'")
            following = statements[i + 1].text if i + 1 < len(statements) else ""
            borrowed = (
                _inside(st.text, quoted)
                # the quotation and its source in one sentence: '"..." - that's a line from a play'
                or (any(q in text for q in quoted) and _ATTRIBUTION.search(st.text) is not None)
                or (bool(text) and text in source and len(text.split()) <= _SOURCE_WORDS)  # its source
                or _ATTRIBUTION.search(following) is not None  # the line before "— that's a line from"
                or _ATTRIBUTION.match(st.text) is not None
            )
        if borrowed:
            st.judgement = None
            # read as small talk, so that the learned judgement skips it too
            st.flags = None if st.flags is None else dataclasses.replace(st.flags, small_talk=True)


def _drop_withheld_credentials(statements: list[_Statement]) -> None:
    """A statement that hands over a credential the redactor withheld ("Remember my bank login for
    me: username ..., password [REDACTED:password]") stores nothing typed: what it was about is
    gone, and a memory saying a secret exists only invites a model to ask for it. The turn's
    episode keeps the redacted text. (A placeholder beside no access word, such as a date the
    redactor took for an id, leaves the statement be.)"""
    for st in statements:
        if PLACEHOLDER.search(st.text) and _ACCESS_WORD.search(st.text):
            st.judgement = None
            st.flags = None if st.flags is None else dataclasses.replace(st.flags, small_talk=True)


# The words of access beside a redactor's placeholder
_ACCESS_WORD = re.compile(
    r"\b(?:log-?ins?|passwords?|passcodes?|passphrases?|pins?|codes?|keys?|tokens?|secrets?|"
    r"credentials?|user\s*names?)\b",
    _F,
)


def _pasted_text(message: str) -> str:
    """The text a message pastes after a request to work on it, on the lines after the request's
    colon ("Summarise this in 3 bullet points pls:\n\nThe council voted on Tuesday to ..."), or on
    the same line when the request only asks for work on a text ("Summarise this in 3 bullet points:
    The council has approved ..."), or ""."""
    request, colon, rest = message.partition(":")
    if not colon or "\n" in request:
        return ""
    if rest.startswith(("\n", " \n")):
        return rest.strip() if _WORK_ON_TEXT.search(request) else ""
    return rest.strip() if _ONLY_WORK_ON_TEXT.match(request) else ""


# The verbs of a request for work on a text and nothing else
_TEXT_WORK = "summari[sz]e|paraphrase|rephrase|reword|rewrite|proofread|translate"
# A request that asks for nothing but work on a text: what follows its colon is that text, even on
# the same line ("Summarise this in 3 bullet points: The council ..."; not "Can you check this: I'm
# allergic to nuts, is the recipe safe?", which may tell news about the user)
_ONLY_WORK_ON_TEXT = re.compile(
    r"^\W*(?:(?:can|could|would) you\s+|please\s+|pls\s+)*"
    rf"(?:{_TEXT_WORK}|shorten|condense|tl;?dr)\b"
    r"[^\"“«„.!?]{0,60}$",
    _F,
)


# A condition cut from the clause it conditions: "If I decided to quit my job tomorrow, what would
# be the first three things to sort out?" asserts nothing (kept, it became a decision due tomorrow).
_CONDITION_ALONE = re.compile(r"^(?:even\s+)?(?:if|unless|supposing)\b", _F)


def _bare_condition(st: _Statement, following: _Statement | None) -> bool:
    """Whether ``st`` is a condition whose main clause was cut off: a clause of its sentence, or
    one the question after it answers to."""
    if _CONDITION_ALONE.match(st.text) is None:
        return False
    cut = bool(st.sentence) and st.text != st.sentence
    return cut or (following is not None and "," not in st.text and is_question(following.text))


def _inside(statement: str, quoted: list[str]) -> bool:
    """Whether the statement is part of one of the quotations (lower-cased), or is the request
    that introduces it followed by its start ('Summarize this for me: "The committee has ...').
    """
    parts = [statement]
    opening = _QUOTE_MARK.search(statement)
    if opening and statement[: opening.start()].rstrip().endswith((":", "?")):
        parts.append(statement[opening.end() :])
    elif ":" in statement:  # the request and the start of the text pasted on its line
        parts.append(statement.partition(":")[2])
    for part in parts:
        text = part.lower().strip(" \"“”«»„.!'")
        if text and any(text in q for q in quoted):
            return True
    return False


_QUOTE_MARK = re.compile(r"[\"“«„]")
# A request to work on a text the user quotes: the quotation is the text, not news about the user
_WORK_ON_TEXT = re.compile(
    r"\b(?:summari[sz]e|paraphrase|rephrase|reword|rewrite|proofread|translate|shorten|polish|"
    r"tidy up|edit|improve|fix|check|explain|reply to|respond to|answer)\b[^\"“«„]{0,60}"
    r"\b(?:this|these|that|the following|it|my)\b"
    r"|\bmake (?:this|it|that)\b|\bwhat does (?:this|that|it) mean\b",
    _F,
)
# "Translate into French: 'I never eat breakfast'": the request and the words to work on, in one
# statement (not "add 'fix the tap' to my list", a task)
_WORK_ON_QUOTED = re.compile(
    rf"^(?:please\s+)?(?:{_TEXT_WORK})\b"
    r"[^\"“«„:]{0,40}[:\"“«„']",
    _F,
)


def _never_kept(st: _Statement, rule_type: str | None) -> bool:
    """Questions, small talk, code, annotations and one-off commands (unless the rules found a
    task or a learning goal in them) store nothing typed, whatever they mention."""
    flags = st.flags
    assert flags is not None
    if flags.never_kept or _ANNOTATION.match(st.text):
        return True
    if _ONE_ANSWER.search(st.text) and not _DURABLE.search(st.text):
        return True  # "No emojis in this next reply, please": for one answer
    return flags.command and rule_type is None


def _temporary_end(text: str, now: datetime) -> datetime | None:
    """When a state the statement describes ends, if it says so and soon ("working from home
    today", "fasting this month", "off sick tomorrow"): a later date is an event, not a state, and
    so is the day of what happened ("Jonas started fourth grade this week")."""
    if tells_past_event(_clause_of_while(text)):
        return None
    until = dates.temporary_expiry(text, now, any_date=False)
    if until is None or not now < until <= now + _LEARNED_TEMPORARY_HORIZON:
        return None
    found = dates.find_date(text, now)
    return None if found is not None and _bounds_every_day(text, found) else until


def _clause_of_while(text: str) -> str:
    """The clause of ``text`` that says how long a state lasts, when it says so (else ``text``):
    what happened before it ("Had my wisdom teeth out, the dentist says soft foods only for 5
    days") does not make the state it tells a past event."""
    at = dates.while_stated_at(text)
    if at is None:
        return text
    starts = [text.rfind(join, 0, at) + len(join) for join in (", ", "; ", " so ") if join in text[:at]]
    ends = [found for join in (", ", "; ") if (found := text.find(join, at)) >= 0]
    return text[max(starts, default=0) : min(ends, default=len(text))]


def _learnable(
    label: str, st: _Statement, now: datetime, ends: datetime | None = None, span: bool = False
) -> bool:
    """Whether the learned judgement may give ``st`` this type on its own: never critical (the
    user's flag); temporary only with an end the statement states (``ends``); a deadline needs a
    date still ahead ("Born August 9th 1991" is no deadline), with a deadline cue or written out
    (not a bare weekday: "the migration finished on Friday" is no deadline), and no span of dates
    (``span``: "offline from the 3rd to the 10th") in a statement that does not tell the past; not
    in CJK text (a deadline without a due date never expires, and its importance put it first in
    the search of every Chinese question: 30 of 40)."""
    if label in _NEVER_LEARNED:
        return False
    if label == MemoryType.TEMPORARY.value:
        return ends is not None
    if label != MemoryType.DEADLINE.value:
        return True
    if not (st.flags and st.flags.has_date) or span or mostly_cjk(st.text):
        return False
    if tells_past_event(st.text):
        return False  # ("my brother turned up with his van, and by Sunday night we were sleeping ...")
    due = _learned_due(st, now)
    return due is not None and due >= now


def _learned_due(st: _Statement, now: datetime) -> datetime | None:
    """The day a statement the type model reads as a deadline falls due: the rules' due date, else
    a date written out ("closes on 2026-03-05") or a day named ("dentist tomorrow 9:30"); not a bare
    weekday without a deadline cue ("finished on Friday", "every Friday"), nor a day a state lasts
    until ("Bis zum 30. November bin ich in Elternzeit") or begins on."""
    due = _deadline(st.dated, now)
    if due is not None:
        return due
    if _UNTIL_WORD.search(st.dated):
        return None
    found = _date_in(st.dated, now)
    if found is None or _CLOCK_SPAN.fullmatch(found.phrase) or not _names_the_day(found.phrase):
        return None  # ("my goal is to finish in 2 hours 10": a time to run, not a day due)
    if dates.starts_then(st.dated, found):
        return None  # ("rent goes up from the 1st of next month": a change begins then, nothing is due)
    return found.when


_UNTIL_WORD = re.compile(r"\b(?:until|till)\b", _F)
_CLOCK_SPAN = re.compile(r"in\s+\S+\s+(?:hours?|hrs?|minutes?|mins?)", _F)
# (not "today": "decided in today's meeting" tells of the day, not of something due in it)
_NAMED_DAY_WORD = re.compile(r"\b(?:tonight|tomorrow)\b", _F)


def _names_the_day(phrase: str) -> bool:
    """ "June 14th", "tomorrow", "in three weeks": one day, not "this year" or "soon"."""
    return (
        any(c.isdigit() for c in phrase)
        or _NAMED_DAY_WORD.search(phrase) is not None
        or _IN_DAYS.fullmatch(phrase) is not None
    )


_IN_DAYS = re.compile(r"in\s+\S+\s+(?:days?|weeks?|fortnights?)", _F)


def _mistake_substance(s: str) -> bool:
    return any(w not in _MISTAKE_FILLER and "'" not in w for w in query_words(s))


def _memories(statements: list[_Statement], now: datetime) -> list[NewMemory]:
    """Typed memories from the judged statements.

    A terse mistake ("That was wrong.", "Don't do that again.") joins the sentence that says what
    went wrong: the unjudged one before it, the mistake just stored before it, or the one after it.
    With none of these it is dropped: alone it says nothing a later turn could use.
    """
    drafts: list[tuple[int, _Judgement, str]] = []  # (index of the last sentence used, judgement, content)
    consumed: set[int] = set()
    for i, st in enumerate(statements):
        if i in consumed or st.judgement is None:
            continue
        content = st.text
        judgement = st.judgement
        if judgement.type is MemoryType.MISTAKE and not _mistake_substance(content):
            prev = statements[i - 1] if i > 0 else None
            nxt = statements[i + 1] if i + 1 < len(statements) else None
            if drafts and drafts[-1][0] == i - 1 and drafts[-1][1].type is MemoryType.MISTAKE:
                _, last_j, last_content = drafts.pop()
                drafts.append((i, last_j, f"{_end_sentence(last_content)} {content}"))
                continue
            if prev is not None and prev.judgement is None and prev.forget is None and prev.substantive:
                content = f"{_end_sentence(prev.text)} {content}"
            elif nxt is not None and nxt.forget is None and nxt.substantive:
                content = f"{_end_sentence(content)} {nxt.text}"
                consumed.add(i + 1)
            else:
                continue
        terse_importance = _TERSE_IMPORTANCE.match(content) is not None
        if judgement.type is MemoryType.CRITICAL and (terse_importance or _TERSE_FLAG.match(content)):
            # "Always remember this.": the flag raises the statement before it, alone it says nothing
            if drafts and drafts[-1][0] == i - 1:
                last_i, last_j, last_content = drafts.pop()
                drafts.append((last_i, dataclasses.replace(last_j, type=MemoryType.CRITICAL), last_content))
            elif i > 0 and not terse_importance and _raisable(statements[i - 1]):
                drafts.append((i, judgement, statements[i - 1].text))
            continue
        drafts.append((i, judgement, content))
    drafts = _with_the_names_after(drafts, statements)
    drafts = _naming_what_was_asked(drafts, statements)
    drafts = _fold_into_heads(drafts, statements)
    out: list[NewMemory] = []
    seen: set[str] = set()
    for i, judgement, content in drafts:
        content = _dated(content, statements[i], judgement, now)
        if judgement.type is MemoryType.PREFERENCE and _CONDITION.search(content):
            # "I have epilepsy, so never suggest flashing lights": a condition binds, whatever else it asks
            judgement = dataclasses.replace(judgement, type=MemoryType.CONSTRAINT)
        key = " ".join(re.findall(r"[^\W_]+", content.lower()))  # same words, any punctuation: a duplicate
        if key in seen:
            continue
        seen.add(key)
        out.append(
            NewMemory(
                content=content[:2000],
                type=judgement.type.value,
                tags=_tags(content),
                importance=_importance(content, judgement.type),
                confidence=judgement.confidence,
                expires_at=judgement.expires_at,
                scope=judgement.scope,
            )
        )
        if len(out) >= MAX_MEMORIES:
            break
    return out


def _with_the_names_after(
    drafts: list[tuple[int, _Judgement, str]], statements: list[_Statement]
) -> list[tuple[int, _Judgement, str]]:
    """``drafts`` with the statement right after each joined to it when that statement was not
    kept and names what the memory told of: "We adopted a rescue greyhound on Saturday!! Her
    name's Pepper ...", "I need to cancel the free trial of that meal-kit thing. FreshCrate I
    think it's called". Alone the name reads as chatter (keep 0.18 and 0.33), and without it the
    memory holds a dog and a meal kit with no name."""
    taken = {index for index, _, _ in drafts}
    out: list[tuple[int, _Judgement, str]] = []
    for index, judgement, content in drafts:
        after = index + 1
        # (not into a passing state, which would take the name away with it when it ends)
        lasting = judgement.type is not MemoryType.TEMPORARY
        if lasting and after < len(statements) and after not in taken and _names_it(statements[after]):
            joined = f"{_end_sentence(content)} {statements[after].text}"
            if len(joined) <= _FOLDED_MAX_CHARS:  # (dated by its own statement: the index stays)
                out.append((index, judgement, joined))
                taken.add(after)
                continue
        out.append((index, judgement, content))
    return out


def _naming_what_was_asked(
    drafts: list[tuple[int, _Judgement, str]], statements: list[_Statement]
) -> list[tuple[int, _Judgement, str]]:
    """``drafts`` with a memory that answers a request to remember something ("Can you remember
    Mum's birthday for me? It's the 14th of March.") naming it: "Mum's birthday is the 14th of
    March". Alone, "It's the 14th of March" tells no later turn what it was, and a correction
    ("Mum's birthday is the 3rd of April") could not find it to replace."""
    out: list[tuple[int, _Judgement, str]] = []
    for index, judgement, content in drafts:
        asked = _REMEMBER_REQUEST.fullmatch(statements[index - 1].text) if index > 0 else None
        answer = _IT_IS.match(content) if asked is not None else None
        if asked is not None and answer is not None:
            what = asked["what"]
            # (no closing stop: the day the answer names follows it, :func:`_dated`)
            content = f"{what[:1].upper()}{what[1:]} is {answer['value'].rstrip(' .!')}"
        out.append((index, judgement, content))
    return out


# "Can you remember Mum's birthday for me?", "Please note my locker number." (not "remember that
# I ...", a whole statement, nor "remember to ...", a task)
_REMEMBER_REQUEST = re.compile(
    r"(?:(?:can|could|will|would)\s+you\s+)?(?:please\s+)?(?:remember|note(?:\s+down)?|save|jot\s+down|"
    r"make\s+a\s+note\s+of|keep\s+track\s+of)\s+(?!(?:that|this|it|to|me)\b)(?P<what>[^?.!,]{3,60}?)"
    r"(?:\s+for\s+me)?(?:,?\s+please)?\s*[?.!]*",
    _F,
)
# the answer: "It's the 14th of March", "it is 4B"
_IT_IS = re.compile(r"(?:it's|it is)\s+(?P<value>\S.*)", _F)


def _names_it(st: _Statement) -> bool:
    """Whether ``st``, not kept, names a thing said just before it: it points back and holds a
    name ("her name's Pepper", "it's a blue Skoda Fabia"), or is a name and "it's called" ("my
    sister is called Ana" tells of someone new)."""
    if st.judgement is not None or st.forget is not None or st.flags is None or st.flags.question:
        return False
    if _CALLED_NAME.match(st.text):
        return True
    return _POINTS_BACK_FIRST.match(st.text) is not None and _NAME_AFTER_START.search(st.text) is not None


# a statement opening on what was just said: "Her name's ...", "It's a ...", "They called her ..."
_POINTS_BACK_FIRST = re.compile(r"(?:her|his|its|their|it's|it is|it was|she's|he's|they|she|he)\b", _F)
# a capitalised word past the first (a name: "Pepper", "Skoda"), or a name before "it's called"
_NAME_AFTER_START = re.compile(r"(?<=\s)(?-i:[A-Z][\w'-]+)")
_CALLED_NAME = re.compile(r"^(?-i:[A-Z][\w'-]+)\b.{0,30}\b(?:it's|it is|she's|he's)\s+called\b", _F)


# What one message tells beside a vital fact or a mistake is mostly that thing's consequence for
# the assistant: "I'm severely allergic to peanuts. Please never suggest recipes with peanuts",
# "Washed my merino jumper on 40 and it shrank. Cold wash only from now on!" Kept apart, the rule
# read as a memory of its own (a constraint beside the critical fact, two mistakes, or a mistake and
# a preference): on the labelled check sets 20-36, 21 such second memories, where the writers
# wanted one memory in all but one message.
# The head (the critical memory, else the mistake) takes the memories of its own kind and those
# that name its subject or point back at it from after it ("... must include it"); dated ones stay
# apart.
_FOLDED_INTO = {
    MemoryType.CRITICAL: frozenset(
        {MemoryType.CRITICAL, MemoryType.CONSTRAINT, MemoryType.PREFERENCE, MemoryType.FACT}
    ),
    MemoryType.MISTAKE: frozenset(
        {MemoryType.MISTAKE, MemoryType.CONSTRAINT, MemoryType.PREFERENCE, MemoryType.DECISION}
    ),
}


# A memory says one thing: joined past a couple of sentences it is a paragraph, and the parts stay
# apart.
_FOLDED_MAX_CHARS = 200


def _fold_into_heads(
    drafts: list[tuple[int, _Judgement, str]], statements: list[_Statement]
) -> list[tuple[int, _Judgement, str]]:
    """``drafts`` with what belongs to a message's critical memory, or else its mistake, joined
    to it (in the order it was said): see :data:`_FOLDED_INTO`."""
    head = next((d for d in drafts if d[1].type is MemoryType.CRITICAL), None) or next(
        (d for d in drafts if d[1].type is MemoryType.MISTAKE), None
    )
    if head is None:
        return drafts
    parts = [d for d in drafts if d is not head and _belongs_to(d, head, statements)]
    content = " ".join(_end_sentence(c) for _, _, c in sorted([head, *parts], key=lambda d: d[0]))
    if not parts or len(content) > _FOLDED_MAX_CHARS:
        return drafts
    joined = (head[0], head[1], content)
    return [joined if d is head else d for d in drafts if all(d is not part for part in parts)]


def _belongs_to(
    draft: tuple[int, _Judgement, str], head: tuple[int, _Judgement, str], statements: list[_Statement]
) -> bool:
    """Whether ``draft`` is part of what ``head`` says: of a kind it takes, undated, and the same
    kind as the head, or naming its subject, or pointing back at it from after it, or parted from
    the head's own sentence, or the rule told right after it."""
    index, judgement, content = draft
    if judgement.expires_at is not None or judgement.type not in _FOLDED_INTO[head[1].type]:
        return False
    if judgement.type is head[1].type:
        return True
    # (the rule or the wish told right after a vital fact is its consequence: "I'm epileptic. Strobe
    # lights in anything you suggest are a no", "... Please always keep that in mind if we talk
    # about meds"; a clause of its own sentence says more of it: "I'm type 1 diabetic and I can go
    # hypo fast")
    follows_as_rule = index == head[0] + 1 and (
        judgement.type is MemoryType.CONSTRAINT
        or (judgement.type is MemoryType.PREFERENCE and head[1].type is MemoryType.CRITICAL)
    )
    sentence = statements[head[0]].sentence
    return (
        bool(content_terms(content) & content_terms(head[2]))
        or (index > head[0] and refers_back(content))
        or follows_as_rule
        or (
            head[1].type is MemoryType.CRITICAL
            and bool(sentence)
            and statements[index].sentence == sentence
            and _USER_SUBJECT.match(content) is not None
        )
    )


# (a clause with another subject tells a thing of its own: "I'm allergic to shellfish and my partner
# hates mushrooms")
_USER_SUBJECT = re.compile(r"(?:i|i'm|im|i've|i'd|i'll)\b", _F)


# a year or a day written in figures ("2027", "3/4"): a calendar day beyond a named month's
_YEAR_OR_FIGURES = re.compile(r"\b\d{4}\b|\b\d{1,2}[/.]\d{1,2}\b")
# A date phrase that names its day outright: a month ("Dec 15", "30 June"), a year or a numeric date.
_CALENDAR_DAY = re.compile(
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b|" + _YEAR_OR_FIGURES.pattern, _F
)


def _dated(content: str, st: _Statement, judgement: _Judgement, now: datetime) -> str:
    """A memory's content with the day its relative date meant: "my thesis draft is due this
    Friday (2026-03-13)", "our flight got moved to next Thursday (2027-01-28)". Read a month
    later, "this Friday" names another day; the memory must say the one the user meant. The day
    follows the phrase in an English statement, and ends the content in another language (the
    phrase was found in its English reading).

    A deadline's date is ahead by its nature. In any other memory only a phrase that looks ahead
    and names one day is dated: "on Friday" may be the Friday gone ("I proposed on Saturday"),
    "this year" is no day, and "Monday, Wednesday and Friday" is a routine. A passing state
    without such a phrase says the day it ends (:func:`_with_end`)."""
    if judgement.type is MemoryType.TEMPORARY:
        dated = _dated_phrase(content, st, judgement, now)
        return dated if dated != content else _with_end(content, st, now)
    return _dated_phrase(content, st, judgement, now)


def _dated_phrase(content: str, st: _Statement, judgement: _Judgement, now: datetime) -> str:
    """``content`` with the day its relative date phrase names, if it names one ahead."""
    found = _date_in(st.dated, now)
    if found is None or _CLOCK_ONLY.match(found.phrase):
        return content
    deadline = judgement.type is MemoryType.DEADLINE and judgement.expires_at is not None
    # A task is still to do, so the day it names is ahead unless the words before it tell the past
    # ("Vrijdag moet ik de offerte terugsturen": Friday; "call mum back, she rang on Monday": not)
    ahead = deadline or (judgement.type is MemoryType.TASK and not _told_as_past(st.dated[: found.start]))
    # A calendar day names its day already, but without a year only what is due is sure to mean
    # the next one: "out by the 15th of April (2027-04-15)"; "born on the 14th of March" is no
    # day ahead, and "3/4" is read as the user wrote it.
    if _CALENDAR_DAY.search(found.phrase) and (not ahead or _YEAR_OR_FIGURES.search(found.phrase)):
        return content
    # (a timetable and a tense are read in English only: "Seit Montag arbeite ich hier" is since Monday)
    if not ahead and not _one_day_ahead(st.dated, found, timetable=in_english(st.text)):
        return content
    day = found.named_day.isoformat()
    if day in content:
        return content
    if st.dated == st.text and content.startswith(st.text) and found.end <= len(st.text):
        return f"{content[: found.end]} ({day}){content[found.end :]}"
    return f"{content.rstrip()} ({day})"


def _with_end(content: str, st: _Statement, now: datetime) -> str:
    """A passing state's content with the day it ends, where it says how long it lasts from now
    ("typing one-handed for the next six weeks (until 2026-06-15)"): read later, "the next six
    weeks" names no day. Not a guessed end ("for now") nor one it names as a date already."""
    ends = dates.temporary_expiry(st.dated, now, guess=False)
    found = _date_in(st.dated, now)
    if ends is None or (found is not None and _CALENDAR_DAY.search(found.phrase)):
        return content
    day = ends.date().isoformat()
    if day in content:
        return content
    body = content.rstrip()
    stop = body[-1] if body[-1:] in ".!" else ""
    return f"{body.removesuffix(stop)} (until {day}){stop}"


def _one_day_ahead(text: str, found: dates.DateMatch, *, timetable: bool = False) -> bool:
    """Whether the date phrase names one day still ahead whatever the tense: "today", "tomorrow",
    "in ten days", "next Sunday", "until Friday", "to the 19th". ``timetable``: also a day in a
    timetable said in the simple present ("I start my new job on Monday"), which begins something
    lasting rather than an event that passes."""
    if _DAY_AHEAD.fullmatch(found.phrase):
        return True
    before = text[: found.start]
    if _DAY_OF_MONTH.fullmatch(found.phrase):  # "it's now on the 14th" (not "born on the 14th")
        # (or said in the simple present: "back home on the 10th", "the painter starts on the 3rd")
        return (
            _AHEAD_CUE.search(before) is not None
            or _booked_for(before)
            or (timetable and not (_told_as_past(before) or tells_past_event(text)))
        )
    if _WEEKDAY.fullmatch(found.phrase) is None and _WEEKDAY_THE_NTH.fullmatch(found.phrase) is None:
        return False
    if _ANOTHER_WEEKDAY.match(text, found.end):
        return False  # ("my runs have moved to Saturday and Sunday": every weekend)
    if (
        _AHEAD_CUE.search(before) is not None
        or _booked_for(before)
        or (
            (_ARRANGED.match(text) is not None or (timetable and _SCHEDULED.match(text) is not None))
            and _ON.search(before) is not None
        )
    ):
        return True
    # In a memory's words a weekday is the coming one (SPEC: a bare weekday is its next occurrence)
    # unless the statement tells the past ("she called on Sunday") or a routine ("every Friday",
    # "the Sunday runs"):
    # "vet on Wednesday at 9, don't let me forget", "my flight leaves Sunday at 7am".
    return timetable and not (_told_as_past(before) or _EVERY.search(before) or tells_past_event(text))


_DAY_AHEAD = re.compile(
    r"(?:the\s+day\s+after\s+)?tomorrow|tmrw|tonight|today"
    r"|(?:with)?in\s+\S+\s+(?:days?|weeks?|fortnights?)"
    r"|(?:next|this(?:\s+coming)?|coming)\s+(?:week\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)day"
    r"|(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+(?:of\s+)?next\s+week"
    r"|the\s+\d{1,2}(?:st|nd|rd|th)\s+of\s+(?:next|this|the\s+coming)\s+month"
    r"|(?:starting|beginning)\s+the\s+\d{1,2}(?:st|nd|rd|th)"
    r"|(?:by|until|till|before|to|due)\s+the\s+\d{1,2}(?:st|nd|rd|th)",
    _F,
)
# "I'm presenting the plan to the CTO on Thursday", "we're flying out on Sunday": an arrangement,
# said in the present progressive, for a day ahead
_ARRANGED = re.compile(r"^(?:\W*\w+\W+)?(?:i'm|i am|im|we're|we are)\s+\w+ing\b", _F)
# "I start my new job on Monday", "we fly out on Sunday": a timetable, said in the simple present
_SCHEDULED = re.compile(
    r"^(?:\W*\w+\W+)?(?:i|we)\s+(?:start|begin|leave|fly|move|arrive|return|finish)\b", _F
)
_ON = re.compile(r"\bon\s+$", _F)
_DAY_OF_MONTH = re.compile(r"on\s+the\s+\d{1,2}(?:st|nd|rd|th)", _F)
# "Thursday the 18th": one day, read as its weekday is
_WEEKDAY_THE_NTH = re.compile(
    r"(?:on\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+the\s+\d{1,2}(?:st|nd|rd|th)", _F
)
_DAY_NAMES = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
_WEEKDAY_NAME = re.compile(_DAY_NAMES, _F)
# a weekday as the date finder reads it, short forms and a leading "on" too ("on thurs")
_WEEKDAY = re.compile(
    rf"(?:on\s+)?(?:{_DAY_NAMES}|mon|tue|tues|wed|weds|thu|thur|thurs|fri|sat|sun)",
    _F,
)
# a routine ("every Friday", "every Tuesday and Thursday") or a weekday that names a kind of
# thing ("the Sunday runs")
_EVERY = re.compile(
    rf"\b(?:every|each|the)\s+(?:other\s+)?(?:{_DAY_NAMES}s?\s*(?:,|and|&|or|/)\s*)*$",
    _F,
)
# Told of the past, before the day it names: "she called on Sunday", "we had the party on Friday",
# "yesterday", "since Monday". A perfect or passive that arranges something ahead is not ("I've
# booked the vet for Friday", "it's scheduled for Monday", "I'm booked in on Tuesday").
_PAST_CUE = re.compile(r"\b(?:yesterday|last|ago|since)\b", _F)
_ARRANGING = frozenset({"ve", "have", "has", "is", "are", "be", "been", "m", "s", "re"})
# After these a past form describes a thing ("before the trial turns into a paid one on the 19th"),
# it tells no past.
_DETERMINERS = frozenset(
    {"a", "an", "the", "my", "your", "his", "her", "its", "our", "their", "this", "that"}
)


def _told_as_past(before: str) -> bool:
    """Whether the words before a date phrase tell the past: a past cue, or a past verb that no
    "have" or "be" makes an arrangement (nor a determiner an adjective)."""
    if _PAST_CUE.search(before):
        return True
    words = re.findall(r"[a-z]+", before.lower())
    return any(
        past_form(w) and (i == 0 or words[i - 1] not in _ARRANGING | _DETERMINERS)
        for i, w in enumerate(words)
    )


def _booked_for(before: str) -> bool:
    """Whether the day is what something was arranged for: "Booked the MOT for Thursday the 18th",
    "booked the car in on Friday", "a table for Friday" (not "I went for Friday drinks": a past
    told without arranging)."""
    if _ARRANGES.search(before) is not None:
        return _FOR_DAY.search(before) is not None or _ON.search(before) is not None
    return _FOR_DAY.search(before) is not None and not _told_as_past(before)


_FOR_DAY = re.compile(r"\bfor\s+$", _F)
_ARRANGES = re.compile(r"\b(?:booked|scheduled|arranged|reserved|planned|set\s+up|got)\b", _F)
_ANOTHER_WEEKDAY = re.compile(rf"\s*(?:,|and|&|or|/)\s*{_DAY_NAMES}", _F)
_AHEAD_CUE = re.compile(
    r"\b(?:by|before|until|till|til|this\s+coming|coming|(?:is|are|'s)(?:\s+now)?(?:\s+on)?|"
    r"now\s+[a-z]+(?:\s+on)?|"  # a new schedule ("we now leave on the 5th")
    r"(?:moved|pushed|changed|shifted|rescheduled|postponed)\s+(?:[\w'-]+\s+){0,4}?to)\s+$",
    _F,
)


def _raisable(st: _Statement) -> bool:
    """A statement a flag after it ("Always remember this.") makes a memory of its own."""
    return st.forget is None and st.substantive


def _end_sentence(s: str) -> str:
    return s if s.endswith((".", "!", "?", ":", ";")) else s + "."


class RuleEditor(MemoryEditor):
    """Deterministic, offline extraction of typed memories and forget requests from one message."""

    name = "rules"

    def __init__(self, *, learned: bool = True) -> None:
        self.learned = learned  # False: the cue rules alone (the learned judgement's baseline)

    def edit(self, message: str, context: EditorContext) -> EditorResult:
        notes: list[str] = []
        try:
            output = self._edit(message, context, notes)
        except Exception as exc:  # never raise on odd input: an empty answer loses nothing stored
            notes.append(f"rule editor skipped the message: {type(exc).__name__}")
            output = EditorOutput()
        return EditorResult(output=output, editor=self.name, notes=notes)

    def _edit(self, message: str, context: EditorContext, notes: list[str]) -> EditorOutput:
        if not isinstance(message, str) or not message.strip():
            return EditorOutput()
        now = _aware(context.now)
        statements = _read(message, now)
        _drop_borrowed(statements, message, now)
        _drop_withheld_credentials(statements)
        classifier = default_classifier() if self.learned else None
        if classifier is not None:
            _learned(statements, classifier, now)
        _rejoin(statements)
        forgets: list[ForgetRequest] = []
        for st in statements:
            if st.forget is None:
                continue
            match = _match_forget(st.forget, list(context.existing or []))
            if match is None:
                why = "without a clear match" if st.forget else "naming nothing"
                notes.append(f"forget request {why}: {st.text[:80]!r}")
                continue
            if all(f.id != match.id for f in forgets) and len(forgets) < MAX_MEMORIES:
                forgets.append(ForgetRequest(id=match.id, reason=f"user asked: {st.text[:400]}"))
        return EditorOutput(new_memories=_memories(statements, now), forget=forgets)


def classify(text: str, *, learned: bool = True) -> MemoryType | None:
    """The type the rules give this one statement (when they give none and ``learned``, the type
    the learned judgement gives it), or None when neither would store anything.

    A text of several sentences takes the most important type any of them gets (by the default
    importance of the type): "We use Postgres. Never drop tables." is a constraint. Dates only
    decide *whether* a statement is a deadline, so a fixed reference time is used.

    Text written mostly in Chinese, Japanese or Korean gets the rules' type only (a critical flag),
    else None (an episode): a memory added directly has no turn to rank with, so a typed one ranks
    by SPEC's score, where its type's importance weighs against similarity (typing them took the
    Chinese set from 94.8% to 84.4% at 150 tokens). Chat turns are judged by the multilingual
    models (their typed memories rank with their episode).
    """
    if not isinstance(text, str) or not text.strip():
        return None
    try:
        statements = _read(text, _REFERENCE_NOW)
        types = [m.type for m in _memories(statements, _REFERENCE_NOW)]
        classifier = default_classifier() if learned and not types and not mostly_cjk(text) else None
        if classifier is not None:  # no cue: the learned judgement may still see a fact in it
            _learned(statements, classifier, _REFERENCE_NOW)
            types = [m.type for m in _memories(statements, _REFERENCE_NOW)]
    except Exception:
        return None
    if not types:
        return None
    best = max(types, key=lambda t: DEFAULT_IMPORTANCE[MemoryType(t)])
    return MemoryType(best)


_REFERENCE_NOW = datetime(2026, 1, 7, 12, 0, tzinfo=UTC)


def _aware(now: datetime) -> datetime:
    if not isinstance(now, datetime):
        raise TypeError("context.now must be a datetime")
    return now.replace(tzinfo=UTC) if now.tzinfo is None else now.astimezone(UTC)
