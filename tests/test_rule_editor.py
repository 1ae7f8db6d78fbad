"""The cue rules of the rule-based Memory Editor (without its learned judgement): typed memories from
plain English, offline and deterministic. The learned judgement is tested in test_learned_editor.py."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import pytest

from memopilot.domain import DEFAULT_IMPORTANCE, Memory, MemoryType
from memopilot.write.editor import EditorContext, EditorOutput, NewMemory
from memopilot.write.rule_editor import RuleEditor, classify

# Wednesday, 4 March 2026, noon UTC.
NOW = datetime(2026, 3, 4, 12, 0, tzinfo=UTC)


def eod(year: int, month: int, day: int) -> datetime:
    return datetime(year, month, day, 23, 59, 59, tzinfo=UTC)


def context(existing: list[Memory] | None = None) -> EditorContext:
    return EditorContext(now=NOW, user_id="u1", project_id="p1", existing=existing or [])


def edit(message: str, existing: list[Memory] | None = None) -> EditorOutput:
    result = RuleEditor(learned=False).edit(message, context(existing))
    assert result.editor == "rules"
    assert result.fallback_reason is None
    return result.output


def only(message: str) -> NewMemory:
    out = edit(message)
    assert len(out.new_memories) == 1, [m.content for m in out.new_memories]
    return out.new_memories[0]


def stored(content: str, type: MemoryType = MemoryType.PREFERENCE, tags: list[str] | None = None) -> Memory:
    return Memory(user_id="u1", content=content, type=type, created_at=NOW, updated_at=NOW, tags=tags or [])


# -- positives, per type ----------------------------------------------------------------------

POSITIVES: dict[str, list[str]] = {
    "preference": [
        "I prefer tabs over spaces.",
        "I like dark roast coffee.",
        "I love Rust's type system.",
        "I hate long meetings.",
        "I don't like ORMs.",
        "Please always answer in English.",
        "Please never use emojis.",
        "My favourite editor is Neovim.",
        "btw I really prefer pytest over unittest",
        "Keep answers short.",
        "From now on, reply in Spanish.",
        "Stop using emojis.",
        "I'd rather you didn't use bullet points.",
        "Call me Sam.",
        "I'm vegetarian.",
    ],
    "decision": [
        "We decided to use PostgreSQL for the main database.",
        "Let's go with FastAPI for the backend.",
        "We'll use Redis for caching.",
        "We are going with a monorepo.",
        "We chose Tailwind over Bootstrap.",
        "We switched to pnpm last month.",
        "Also, the team agreed to squash-merge every PR.",
        "The final decision is to host on Hetzner.",
        # change statements, which the write path then matches against the old choice
        "Actually, we switched from PostgreSQL to CockroachDB for billing.",
        "We no longer use Jenkins; GitHub Actions runs CI now.",
        "We use Vite instead of Webpack.",
        "Instead of Slack, we will use Teams.",
        "We don't use Redux anymore.",
        "The budget is now 8000 dollars.",
    ],
    "constraint": [
        "The API must respond within 200 ms.",
        "We must not store raw passwords.",
        "Never deploy on Fridays.",
        "We can't use GPL libraries.",
        "We cannot add new dependencies without review.",
        "We are not allowed to call external APIs from tests.",
        "The service has to run on Python 3.11.",
        "Only signed commits are allowed on main.",
        "We need to support Python 3.9.",
        "Always use type hints.",
        "Builds must stay under 10 minutes.",
    ],
    "mistake": [
        "That was wrong. The API uses v2, not v1.",
        "You made a mistake with the timezone conversion.",
        "Don't suggest deprecated APIs again.",
        "That broke the build because the import path changed.",
        "Your fix was wrong: the cache key must include the user id.",
        "You deleted my tests. Don't do that again.",
        "You got the port wrong, it is 5433.",
        "Lesson learned: run migrations before seeding.",
    ],
    "learning_goal": [
        "I want to learn Rust.",
        "I'm learning Japanese.",
        "I'd like to get better at writing SQL.",
        "Teach me category theory over time.",
        "My goal is to master Kubernetes this year.",
        "I want to improve my public speaking.",
        "I'm currently studying for the AWS certification.",
    ],
    "task": [
        "I need to update the changelog.",
        "Remind me to renew the SSL certificate.",
        "TODO: write migration tests.",
        "I have to call the bank.",
        "Writing docs for the CLI is on my list.",
        "Don't forget to bump the version.",
        "We still need to migrate the old cron jobs.",
        "Remember to rotate the logs.",
    ],
    "critical": [
        "Critical: never run migrations on prod without a backup.",
        "Always remember that the prod DB has no replica.",
        "Important: never share the admin token.",
        "I am severely allergic to penicillin.",
        "Always remember: I have a heart condition.",
        "Never forget that the billing service is shared with finance.",
    ],
    "project": [
        "The project uses Django 5.",
        "Our stack is React, Go and Postgres.",
        "The repo is hosted on GitLab.",
        "We're building a budgeting app for students.",
        "The API runs on port 8080.",
        "We deploy to AWS with Terraform.",
        "The frontend is written in TypeScript.",
        "I work at Acme as a data engineer.",
    ],
}

POSITIVE_CASES = [(kind, text) for kind, texts in POSITIVES.items() for text in texts]


@pytest.mark.parametrize(("kind", "text"), POSITIVE_CASES)
def test_positive_examples_get_their_type(kind: str, text: str) -> None:
    memory = only(text)
    assert memory.type == kind
    assert memory.expires_at is None
    assert memory.tags, "a memory carries topic tags"
    assert all(tag == tag.lower() and " " not in tag for tag in memory.tags)
    assert memory.importance is not None and memory.importance >= DEFAULT_IMPORTANCE[MemoryType(kind)]
    assert classify(text, learned=False) == MemoryType(kind)


DEADLINES = [
    ("The report is due Friday.", eod(2026, 3, 6)),
    ("The deadline is next week.", eod(2026, 3, 13)),
    ("We ship on March 20.", eod(2026, 3, 20)),
    ("The release is due 2027-01-15.", eod(2027, 1, 15)),
    ("I need to submit the grant by the end of the month.", eod(2026, 3, 31)),
    ("The demo is on Jan 5.", eod(2027, 1, 5)),
    ("The migration has to be done before March 3rd.", eod(2027, 3, 2)),
    ("I need the slides by 5pm.", datetime(2026, 3, 4, 17, 0, tzinfo=UTC)),
    ("Code freeze is tomorrow.", eod(2026, 3, 5)),
    ("The launch slipped from March 10 to March 24.", eod(2026, 3, 24)),
    ("Send the invoice EOD.", None),  # an order to the assistant, not the user's deadline
]


@pytest.mark.parametrize(("text", "expires"), DEADLINES)
def test_deadlines_carry_their_due_date(text: str, expires: datetime | None) -> None:
    out = edit(text)
    if expires is None:
        assert out.new_memories == []
        return
    assert len(out.new_memories) == 1
    memory = out.new_memories[0]
    assert memory.type == "deadline"
    assert memory.expires_at == expires
    assert memory.scope == "project"


TEMPORARIES = [
    ("Today only, use the staging database.", eod(2026, 3, 4)),
    ("For now we're on the free tier.", NOW + timedelta(days=7)),
    ("This week I'm focusing on the auth module.", eod(2026, 3, 8)),
    ("The CI is temporarily disabled.", NOW + timedelta(days=7)),
    ("For this session, answer in French.", NOW + timedelta(hours=12)),
    ("I'm out of office until Monday.", eod(2026, 3, 9)),
    ("Mute notifications for the next 2 hours.", NOW + timedelta(hours=2)),
    ("For the time being, skip the e2e suite.", NOW + timedelta(days=7)),
]


@pytest.mark.parametrize(("text", "expires"), TEMPORARIES)
def test_temporary_notes_expire(text: str, expires: datetime) -> None:
    memory = only(text)
    assert memory.type == "temporary"
    assert memory.expires_at == expires
    assert classify(text, learned=False) is MemoryType.TEMPORARY


# -- negatives ----------------------------------------------------------------------------------

NEGATIVES = [
    # questions
    "What is a monad?",
    "Can you explain closures in JavaScript?",
    "How do I reverse a list in Python?",
    "Why does my build fail",
    "Is Postgres better than MySQL?",
    "Could you help me with this regex?",
    "Do you know what time it is?",
    "what's the difference between let and const",
    "Should I use tabs or spaces?",
    "Which database should we pick?",
    "Where is the config file?",
    "Any idea why this is slow?",
    "Can you remind me what we decided?",
    # small talk
    "hi",
    "Hello!",
    "thanks!",
    "Thank you so much 🙏",
    "how are you",
    "ok cool",
    "lol",
    "Great, thanks.",
    "Sounds good 👍",
    "Good morning!",
    "I love it!",
    "I like that.",
    "haha ok",
    "I can't believe it works now!",
    "I have to admit this is nice.",
    "That must have been the cache.",
    # one-off commands
    "Write a function that parses CSV.",
    "Explain the CAP theorem.",
    "Fix this bug.",
    "Translate this into German.",
    "Summarize the article above.",
    "Refactor this function to use async.",
    "Give me three name ideas for my cat.",
    "Show me an example of a decorator.",
    "Make it shorter.",
    "Now add error handling.",
    "Please rewrite this paragraph.",
    "Generate a SQL query for the top customers.",
    "Don't use recursion here.",
    "Use a dict for this one.",
    "Try again.",
    "Never mind.",
    "I'd prefer a table for this answer.",
    "I need you to write a test for this.",
    "I'd like you to write a poem.",
    # hedged or vague
    "Maybe we should switch to Vue.",
    "I'm not sure we decided anything.",
    "I wonder if we should use Rust.",
    "I'm working on it.",
    "The 2nd time it worked.",
    "at least it compiles now",
]


@pytest.mark.parametrize("text", NEGATIVES)
def test_negatives_store_nothing(text: str) -> None:
    out = edit(text)
    assert out.new_memories == []
    assert out.forget == []
    assert classify(text, learned=False) is None


def test_there_are_enough_examples() -> None:
    for kind, texts in POSITIVES.items():
        assert len(texts) >= 6, kind
    assert len(DEADLINES) >= 6 and len(TEMPORARIES) >= 6
    assert len(NEGATIVES) >= 30


# -- messages with several statements ---------------------------------------------------------


def test_multi_sentence_message_yields_several_typed_memories() -> None:
    out = edit(
        "Hi! I prefer Python over Java. Also, we decided to use FastAPI. "
        "Btw the deadline is Friday. Can you write a hello world?"
    )
    got = [(m.type, m.content) for m in out.new_memories]
    assert got == [
        ("preference", "I prefer Python over Java."),
        ("decision", "we decided to use FastAPI."),
        ("deadline", "the deadline is Friday (2026-03-06)."),  # the day "Friday" meant
    ]
    assert out.new_memories[2].expires_at == eod(2026, 3, 6)


def test_lines_and_bullets_are_statements() -> None:
    out = edit("- I prefer pytest\n- We use GitHub Actions\n- Deadline: March 15\n\nthanks!")
    assert [m.type for m in out.new_memories] == ["preference", "project", "deadline"]
    assert out.new_memories[0].content == "I prefer pytest"
    assert out.new_memories[2].expires_at == eod(2026, 3, 15)


def test_one_statement_gives_at_most_one_memory() -> None:
    # preference, constraint and project cues in one clause: one memory, the higher-priority type
    out = edit("We must use Postgres because I like it for the stack.")
    assert len(out.new_memories) == 1
    assert out.new_memories[0].type == "constraint"
    # a second clause with its own subject is a statement of its own (2026-12-06, twelfth session)
    out = edit("We must use Postgres because I like it and our stack is Python.")
    assert [m.type for m in out.new_memories] == ["constraint", "project"]


def test_question_tail_is_split_from_a_statement() -> None:
    out = edit("I prefer short answers, can you summarize this?")
    assert [(m.type, m.content) for m in out.new_memories] == [("preference", "I prefer short answers")]


@pytest.mark.parametrize(
    ("message", "statement"),
    [
        ("I take warfarin, so is it ok to take ibuprofen for my back pain?", "I take warfarin"),
        ("I have a pacemaker, is it safe to use an induction hob?", "I have a pacemaker"),
        (
            "Je suis allergique aux fruits à coque, peux-tu vérifier cette recette ?",
            "Je suis allergique aux fruits à coque",
        ),
        (
            "Soy celíaca y mi marido es diabético, ¿qué postre puedo hacer?",
            "Soy celíaca y mi marido es diabético",
        ),
        (
            "Ich muss bis Donnerstag die Präsentation fertig haben, kannst du mir helfen?",
            "Ich muss bis Donnerstag die Präsentation fertig haben",
        ),
        ("I'm type 1 diabetic — any hiking snack ideas that won't spike me too hard?", "I'm type 1 diabetic"),
        ("i have covid rn and zero appetite, what should i even eat", "i have covid rn and zero appetite"),
        (
            "I'm on paternity leave until the 24th, so no work questions from me for a while 😄 What are "
            "good newborn sleep routines?",
            "I'm on paternity leave until the 24th, so no work questions from me for a while 😄",
        ),
    ],
)
def test_a_statement_is_read_apart_from_the_question_asked_after_it(message: str, statement: str) -> None:
    """What a user tells before asking ("I have a pacemaker, is it safe to ...?") is theirs to
    keep; read as one question, it stored nothing."""
    from memopilot.write.sentences import split_sentences

    assert split_sentences(message)[0] == statement
    assert len(split_sentences(message)) == 2


def test_a_question_about_what_was_just_said_keeps_it_a_question() -> None:
    from memopilot.write.sentences import split_sentences

    assert edit("Honestly, is it worth it?").new_memories == []  # ("Honestly" alone says nothing)
    hearsay = "A friend says never buy a used car from a rental company, is that true?"
    assert split_sentences(hearsay) == [hearsay]  # what is asked about is not what the user holds
    assert edit(hearsay).new_memories == []


@pytest.mark.parametrize(
    ("message", "content"),
    [
        # said on Wednesday 4 March 2026
        (
            "My thesis draft is due this Friday, help me plan the week.",
            "My thesis draft is due this Friday (2026-03-06)",
        ),
        (
            "The tax return has to be filed by the end of the month.",
            "filed by the end of the month (2026-03-31)",
        ),
        ("The landlord wants the flat inspection done by the 30th.", "done by the 30th (2026-03-30)"),
        # a day of a named month without a year: the next one (twenty-sixth session)
        (
            "Good news, the lender agreed, the mortgage papers now have to be signed by the 2nd of February.",
            "by the 2nd of February (2027-02-02)",
        ),
        ("Council tax appeal deadline: 20 April, I must send the form before then.", "(2026-04-20)"),
    ],
)
def test_a_deadline_says_the_day_its_relative_date_meant(message: str, content: str) -> None:
    """Read a month later, "this Friday" names another day: the memory keeps the one meant."""
    memory = only(message)
    assert memory.type == "deadline" and content in memory.content


def learned_edit(message: str) -> EditorOutput:
    """The default editor's output: the rules with the learned judgement."""
    return RuleEditor().edit(message, context()).output


def learned_only(message: str) -> NewMemory:
    out = learned_edit(message)
    assert len(out.new_memories) == 1, [m.content for m in out.new_memories]
    return out.new_memories[0]


@pytest.mark.parametrize(
    ("message", "content"),
    [
        # said on Wednesday 4 March 2026: any memory, not only a deadline, says the day meant
        ("Our flight to Oslo got moved to next Thursday, same time.", "next Thursday (2026-03-12)"),
        ("The dentist rang, they've moved me to the 19th.", "to the 19th (2026-03-19)"),
        ("I'm in Porto till Sunday for work.", "till Sunday (2026-03-08)"),
        ("I have to return the rented tux the day after tomorrow.", "the day after tomorrow (2026-03-06)"),
        # "before Saturday" is due on Friday, but the phrase names Saturday
        ("Book the vet for his booster, it has to be before Saturday.", "before Saturday (2026-03-07)"),
        # a day of the month told in the present, or a day something is booked for
        ("Staying at my brother's in Kelso this week, back home on the 10th.", "on the 10th (2026-03-10)"),
        ("Booked the car in for its service on Friday the 13th.", "Friday the 13th (2026-03-13)"),
        ("Got a table for Saturday at the Thai place on Mill Road.", "for Saturday (2026-03-07)"),
        # a task is still to do: the day it names is ahead, in any language the date words read
        ("Need to drop the parcel at the post office on Friday.", "(2026-03-06)"),
        ("Vrijdag moet ik het contract terugsturen naar de makelaar.", "(2026-03-06)"),
        ("Tenho de levar o cão ao veterinário na sexta-feira da semana que vem.", "(2026-03-13)"),
        # a weekday said before "next week", a day of next month, a new schedule, a start
        ("The dentist called and moved me to Tuesday next week.", "Tuesday next week (2026-03-10)"),
        ("Our ferry got changed, we now sail on the 9th instead.", "on the 9th (2026-03-09)"),
        ("My gym fee goes up from the 1st of next month.", "the 1st of next month (2026-04-01)"),
        ("Recycling moves to every other Thursday, starting the 12th.", "starting the 12th (2026-03-12)"),
    ],
)
def test_a_memory_says_the_day_its_relative_date_meant(message: str, content: str) -> None:
    assert content in learned_only(message).content


@pytest.mark.parametrize(
    "message",
    [
        "I proposed to Aiko on Saturday on the top of Mount Rokko and she said yes!",  # the Saturday gone
        "I go swimming Monday, Wednesday and Friday before work.",  # a routine
        "My goal for this year is to read 40 books.",  # no one day
        "My niece was born on the 14th, a little early.",  # a day gone
        "I went out for Friday drinks with the team and stayed far too late.",  # a day gone
        "I need to ring my sister back, she called on Monday while I was out.",  # a task, a day gone
        "My grandad was born on the 3rd of June, in a farmhouse near Ruthin.",  # a named day, not due
    ],
)
def test_a_date_that_may_be_past_or_names_no_day_is_not_dated(message: str) -> None:
    assert "(2026-" not in learned_only(message).content and "(2027-" not in learned_only(message).content


@pytest.mark.parametrize(
    "message",
    [
        "My gym fee goes up from the 1st of next month.",
        "Recycling moves to every other Thursday, starting the 12th.",
    ],
)
def test_a_change_that_starts_on_a_day_outlives_it(message: str) -> None:
    """The day a lasting change begins is no day it falls due: kept as a deadline, "my gym fee goes
    up from the 1st of next month" would leave the context after the 1st."""
    memory = learned_only(message)
    assert memory.type != "deadline" and memory.expires_at is None


def test_a_change_that_starts_this_week_is_no_temporary_state() -> None:
    memory = learned_only("Physio has switched to Tuesday evenings. From this week on that's my slot.")
    assert memory.type != "temporary" and memory.expires_at is None


@pytest.mark.parametrize(
    "message",
    [
        'Could you make this email sound less pushy? "As I already said, the deadline was Friday."',
        'Summarize this for me: "The committee has decided to postpone the vote until further notice."',
        "Hypothetically, if I decided to quit my job and sail for a year, how much would I need?",
        "Someone at the gym told me you should never eat after 8pm. Is that true?",
        "If I switched to the night shift, what would happen to my sleep?",
        "No emojis in this next reply, please, I'm pasting it into a formal document.",
    ],
)
def test_quoted_hypothetical_hearsay_and_one_answer_requests_store_nothing(message: str) -> None:
    assert learned_edit(message).new_memories == []


@pytest.mark.parametrize(
    "message",
    [
        "Keep my gym locker details for me: locker 48, code [REDACTED:password]",
        "Save this so I don't lose it: our router login is admin / [REDACTED:password]",
        "The staging deploy token is [REDACTED:github_token], remember it for me please.",
    ],
)
def test_a_credential_the_redactor_withheld_stores_nothing_typed(message: str) -> None:
    assert learned_edit(message).new_memories == []


def test_a_placeholder_beside_no_access_word_leaves_the_statement_be() -> None:
    message = "My passport expires [REDACTED:national_id] and I need to renew it before the Oslo trip."
    out = learned_edit(message)
    assert any("passport" in m.content for m in out.new_memories)


def test_a_fact_beside_a_quoted_text_is_kept() -> None:
    out = learned_edit('I live in Leeds. Can you fix this sentence: "their going to the park on Sunday"')
    assert [m.content for m in out.new_memories] == ["I live in Leeds."]


@pytest.mark.parametrize(
    "message",
    [
        "Can you proofread this for me:\n\nOur team decided to move the launch to March. I always "
        "prefer tea over coffee. The budget is capped at 5,000.",
        "Please tidy up the following:\nWe switched suppliers last month and I'm allergic to nuts.",
        # the text on the request's own line
        "Condense this into two lines: Our landlord has agreed to fix the boiler by Friday. I always "
        "prefer the window seat. The team decided to drop the Tuesday call.",
        "Could you translate this into Spanish for me: I'm allergic to shellfish and I can't eat gluten.",
    ],
)
def test_text_pasted_after_a_request_to_work_on_it_stores_nothing(message: str) -> None:
    assert learned_edit(message).new_memories == []


@pytest.mark.parametrize(
    "message",
    [
        "Quick update on me:\nI moved to Leeds in May and I teach chemistry now.",
        # on the same line after a colon that asks for no work on a text: the user's own news
        "Quick update on me: I moved to Leeds in May and I teach chemistry now.",
    ],
)
def test_news_after_a_colon_that_asks_for_no_work_is_kept(message: str) -> None:
    assert any("Leeds" in m.content for m in learned_edit(message).new_memories)


@pytest.mark.parametrize(
    "message",
    [
        "I have photosensitive epilepsy, so please never suggest videos or games with flashing lights",
        "そばアレルギーがあるので、そば粉を使わない和菓子のレシピを教えてください。",  # (a buckwheat allergy)
    ],
)
def test_a_condition_that_binds_is_a_constraint_not_a_taste(message: str) -> None:
    assert learned_only(message).type == "constraint"


@pytest.mark.parametrize(
    ("message", "due"),
    [
        # said on Wednesday 4 March 2026: a day soon ahead is kept in view until it passes
        ("The application for the Corran Trust internship closes next Tuesday at noon.", "2026-03-10"),
        ("dentist tomorrow at 8:15 and I'm dreading it", "2026-03-05"),
        ("my sister's wedding is on Saturday and I still haven't written my toast.", "2026-03-07"),
        # an undertaking of one day is an event, not a lasting project
        ("The Fennick fun run is this Sunday, I'm doing the 10k with my neighbour!", "2026-03-08"),
        ("Next Saturday we're running the school bake sale and I'm on the cake stall.", "2026-03-14"),
    ],
)
def test_a_day_soon_ahead_makes_a_deadline_due_then(message: str, due: str) -> None:
    memory = learned_only(message)
    assert memory.type == "deadline" and memory.expires_at is not None
    assert memory.expires_at.date().isoformat() == due and f"({due})" in memory.content


def test_an_undertaking_that_starts_on_a_day_lasts_past_it() -> None:
    memory = learned_only("We're renovating the bathroom starting next Monday, it will take three weeks.")
    assert memory.type != "deadline"


def test_a_condition_said_beside_a_coming_day_outlives_it() -> None:
    memory = learned_only("My in-laws are coming Saturday, so gluten-free: my father-in-law is coeliac.")
    assert memory.type != "deadline" and memory.expires_at is None
    # told as two clauses, the visit ends on its day and the condition stays
    out = learned_edit("My in-laws are coming Saturday and my father-in-law is coeliac, so gluten-free.")
    ends = {m.content: m.expires_at for m in out.new_memories}
    assert ends.get("my father-in-law is coeliac, so gluten-free.", "missing") is None
    assert all(end is not None for content, end in ends.items() if "Saturday" in content)


def test_a_taste_that_names_a_duration_is_no_temporary_state() -> None:
    memory = learned_only("I'd rather pay more for a direct flight than sit in an airport for 4 hours.")
    assert memory.type != "temporary" and memory.expires_at is None


def test_what_happened_today_is_news_not_a_deadline() -> None:
    assert learned_only("I quit my job at Deloitte today.").type != "deadline"


@pytest.mark.parametrize(
    "message",
    [
        "My colleague Ravi is flying to Osaka for a conference soon. What's the weather like there in April?",
        "my coworker Dave keeps microwaving fish in the office, it's so annoying",
    ],
)
def test_a_friends_or_colleagues_news_that_does_not_touch_the_user_stores_nothing(message: str) -> None:
    assert learned_edit(message).new_memories == []


def test_a_friends_news_that_involves_the_user_is_kept() -> None:
    assert "Sam" in learned_only("My friend Sam is visiting me next week.").content


def test_a_list_of_things_to_know_is_facts_not_tasks() -> None:
    out = learned_edit("things for you to know:\n- my husband hates coriander\n- we're 2 adults + 3 kids")
    assert {m.type for m in out.new_memories} == {"fact"} and len(out.new_memories) == 2
    todo = learned_edit("things for the weekend:\n- buy milk\n- call mum")
    assert [m.type for m in todo.new_memories] == ["task", "task"]


def test_a_deadline_written_as_a_day_gains_only_its_year() -> None:
    """A day of a named month says all but the year, which the ISO day adds; a day written with
    its year or in figures is left as written."""
    assert only("The invoices are due to Brightwell by Dec 15.").content == (
        "The invoices are due to Brightwell by Dec 15 (2026-12-15)."
    )
    assert only("The invoices are due to Brightwell by 15 Dec 2026.").content == (
        "The invoices are due to Brightwell by 15 Dec 2026."
    )
    report = "The report is due on 15 December."
    assert only(report).content == "The report is due on 15 December (2026-12-15)."


def test_terse_mistake_takes_the_sentence_that_explains_it() -> None:
    memory = only("That was wrong. The config lives in /etc/app.yaml, not in the repo.")
    assert memory.type == "mistake"
    assert memory.content == "That was wrong. The config lives in /etc/app.yaml, not in the repo."
    before = only("You overwrote my migrations. Don't do that again.")
    assert before.type == "mistake"
    assert before.content == "You overwrote my migrations. Don't do that again."
    # with nothing to explain it, a bare reproach is not a lesson
    assert edit("That was wrong.").new_memories == []


def test_duplicate_statements_in_one_message_are_stored_once() -> None:
    out = edit("I prefer tabs. I prefer tabs! I prefer tabs.")
    assert len(out.new_memories) == 1


def test_fillers_are_trimmed_but_words_kept() -> None:
    assert only("btw we use Postgres").content == "we use Postgres"
    assert only("Oh and, I'm learning Go.").content == "I'm learning Go."
    assert only("also: never deploy on Fridays").content == "never deploy on Fridays"
    assert only("So far we use Postgres.").content == "So far we use Postgres."


# -- scope, importance, confidence, tags ----------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "I prefer tabs over spaces.",
        "Please always answer in English.",
        "I hate long meetings.",
        "Call me Sam.",
    ],
)
def test_personal_preferences_are_user_wide(text: str) -> None:
    memory = only(text)
    assert memory.type == "preference"
    assert memory.scope == "user"


@pytest.mark.parametrize(
    "text", ["We prefer small pull requests in this repo.", "For this project I prefer Vitest over Jest."]
)
def test_project_preferences_stay_in_the_project(text: str) -> None:
    memory = only(text)
    assert memory.type == "preference"
    assert memory.scope == "project"


def test_scope_of_other_types() -> None:
    assert only("I am severely allergic to peanuts.").scope == "user"
    assert only("I want to learn Rust.").scope == "user"
    assert only("Critical: never run migrations on prod without a backup.").scope == "project"
    assert only("We decided to use Redis.").scope == "project"
    assert only("The API must respond within 200 ms.").scope == "project"


def test_importance_follows_type_and_emphasis() -> None:
    assert only("We decided to use Redis.").importance == DEFAULT_IMPORTANCE[MemoryType.DECISION]
    assert only("It's very important that we never log PII.").importance == pytest.approx(0.9)
    assert only("Critical: the billing job must never run twice.").importance == pytest.approx(0.95)
    assert only("I prefer tabs.").importance == DEFAULT_IMPORTANCE[MemoryType.PREFERENCE]


def test_explicit_cues_are_more_confident_than_weak_ones() -> None:
    explicit = only("I prefer tabs over spaces.")
    habit = only("I usually write tests first.")
    assert explicit.type == habit.type == "preference"
    assert explicit.confidence > habit.confidence


def test_tags_are_topic_keywords() -> None:
    memory = only("We decided to use PostgreSQL for the main database.")
    assert memory.tags[:3] == ["postgresql", "main", "database"]
    assert "decided" not in memory.tags and "the" not in memory.tags
    assert len(only("I prefer " + " ".join(f"word{i}x" for i in range(20))).tags) <= 5


# -- forget requests ------------------------------------------------------------------------------


@pytest.fixture
def existing() -> list[Memory]:
    return [
        stored("I like sushi"),
        stored("I like ramen"),
        stored("My home address is 12 Baker Street", MemoryType.CRITICAL),
        stored("We use Postgres", MemoryType.PROJECT, ["database"]),
        stored("My work address is 4 Pine Road", MemoryType.PROJECT),
    ]


@pytest.mark.parametrize(
    ("message", "index"),
    [
        ("forget that I like sushi", 0),
        ("Please forget my home address.", 2),
        ("Can you forget that we use Postgres?", 3),
        ("forget about ramen", 1),
        ("delete the memory about sushi", 0),
        ("Stop remembering my work address please", 4),
    ],
)
def test_forget_names_the_clearly_matching_memory(message: str, index: int, existing: list[Memory]) -> None:
    out = edit(message, existing)
    assert [f.id for f in out.forget] == [existing[index].id]
    assert out.new_memories == []


@pytest.mark.parametrize(
    "message",
    ["Forget my address", "Forget that I like pizza.", "Please forget everything", "Forget it.", "forget"],
)
def test_unclear_forget_names_nothing_and_stores_nothing(message: str, existing: list[Memory]) -> None:
    result = RuleEditor(learned=False).edit(message, context(existing))
    assert result.output.forget == []
    assert result.output.new_memories == []
    assert any("forget request" in note for note in result.notes)


def test_forget_with_no_memories_is_harmless() -> None:
    out = edit("Forget that I like sushi.")
    assert out.forget == [] and out.new_memories == []


def test_forget_next_to_a_new_fact(existing: list[Memory]) -> None:
    out = edit("Forget that I like sushi. I prefer tea.", existing)
    assert [f.id for f in out.forget] == [existing[0].id]
    assert [(m.type, m.content) for m in out.new_memories] == [("preference", "I prefer tea.")]


def test_dont_forget_and_never_forget_are_not_forget_requests(existing: list[Memory]) -> None:
    out = edit("Don't forget to buy milk. Never forget that I'm allergic to nuts.", existing)
    assert out.forget == []
    assert [m.type for m in out.new_memories] == ["task", "critical"]


# -- classify -------------------------------------------------------------------------------------


def test_classify() -> None:
    assert classify("I prefer tabs") is MemoryType.PREFERENCE
    assert classify("The report is due Friday") is MemoryType.DEADLINE
    assert classify("We use Postgres. Never drop tables in prod.") is MemoryType.CONSTRAINT
    assert classify("remember that my sister's name is Ana") is MemoryType.PROJECT
    assert classify("hello") is None
    assert classify("what is this?") is None
    assert classify("Forget that I like sushi") is None
    assert classify("") is None
    assert classify(None) is None  # type: ignore[arg-type]


# -- robustness -----------------------------------------------------------------------------------

ODD = [
    "",
    "   \n\t ",
    "🙂" * 200,
    "a" * 5000,
    "I prefer " + "x" * 5000,
    "```python\ndef f():\n    return 1\n```",
    "```\nunterminated fence, I prefer tabs",
    "\x00\x01\x02",
    "Ñandú ☃ 🤖 ü",
    "?" * 100,
    "Ich muss morgen arbeiten.",
    "Je préfère le thé.",
    "-" * 80,
    "1. 2. 3.",
    "SELECT * FROM users WHERE id = 1;",
    "const x = () => { return y; };",
    "{'a': [1, 2, 3]}",
]


@pytest.mark.parametrize("message", ODD)
def test_odd_input_gives_an_empty_answer(message: str) -> None:
    out = edit(message)
    assert out.new_memories == [] and out.forget == [] and out.updates == []


def test_non_string_message_and_bad_context_never_raise() -> None:
    editor = RuleEditor(learned=False)
    assert editor.edit(None, context()).output == EditorOutput()  # type: ignore[arg-type]
    broken = EditorContext(now="yesterday", user_id="u1", project_id=None)  # type: ignore[arg-type]
    result = editor.edit("I prefer tabs.", broken)
    assert result.output == EditorOutput()
    assert result.notes


def test_code_blocks_are_not_memories_but_the_prose_around_them_is() -> None:
    out = edit("I prefer f-strings.\n```python\n# we must never do this\nx = 1\n```\nWe use Python 3.12.")
    assert [m.type for m in out.new_memories] == ["preference", "project"]


def test_a_long_message_stays_within_the_output_limits() -> None:
    message = " ".join(f"We use tool{i} for stage{i}." for i in range(300))
    out = edit(message)
    assert 0 < len(out.new_memories) <= 20
    EditorOutput.model_validate(out.model_dump())


def test_output_is_deterministic() -> None:
    message = "I prefer tabs. We decided to use Redis. The demo is on Friday. For now, skip e2e."
    first = edit(message).model_dump()
    for _ in range(3):
        assert edit(message).model_dump() == first


def test_fast_enough() -> None:
    editor = RuleEditor(learned=False)
    message = "I prefer short answers with code examples. We decided to deploy the API on Fly.io by Friday."
    ctx = context()
    for _ in range(5):
        editor.edit(message, ctx)
    start = time.perf_counter()
    for _ in range(50):
        editor.edit(message, ctx)
    assert (time.perf_counter() - start) * 1000 / 50 < 20.0


def test_a_state_until_a_date_is_temporary_and_a_task_by_a_date_a_deadline() -> None:
    stay = only("I'm working from my parents' place in Lyon until the end of the month.")
    assert stay.type == "temporary" and stay.expires_at == eod(2026, 3, 31)
    assert only("I need to submit the report by Friday.").type == "deadline"
    # the day first, the deadline named after it
    named_after = only("Thursday's the deadline for the allotment application.")
    assert named_after.type == "deadline" and named_after.expires_at == eod(2026, 3, 5)


def test_sentences_end_at_cjk_stops_and_not_at_a_middle_initial() -> None:
    from memopilot.write.sentences import split_sentences

    assert split_sentences("早上好！对了，我老公叫李明，他是医生。他喜欢跑步？") == [
        "早上好！",
        "对了，我老公叫李明，他是医生。",
        "他喜欢跑步？",
    ]
    assert split_sentences("My favourite author is Ursula K. Le Guin. I got an A. Then I left.") == [
        "My favourite author is Ursula K. Le Guin.",
        "I got an A.",
        "Then I left.",
    ]


def test_a_day_written_as_an_ordinal_does_not_end_the_sentence() -> None:
    from memopilot.write.sentences import split_sentences

    assert split_sentences("Ich muss bis zum 20. den Mietvertrag unterschreiben.") == [
        "Ich muss bis zum 20. den Mietvertrag unterschreiben."
    ]
    assert split_sentences("Am 3. Mai fliege ich. Das ist gut.") == ["Am 3. Mai fliege ich.", "Das ist gut."]
    assert split_sentences("I turned 30. My wife is 29.") == ["I turned 30.", "My wife is 29."]


@pytest.mark.parametrize(
    "message",
    [
        "super important for all future chats: I'm deaf in my left ear, so say if a restaurant is quiet",
        "Bu çok önemli, unutma: penisiline alerjim var.",
        "非常重要，记住：我对青霉素过敏。",
        "Nunca olvides esto: mi hijo es alérgico al marisco.",  # the flag with "esto", not only "lo"
    ],
)
def test_a_flag_of_importance_in_other_words_and_languages_is_critical(message: str) -> None:
    out = RuleEditor().edit(message, EditorContext(NOW, "u", None, [])).output
    assert [m.type for m in out.new_memories] == ["critical"]


def test_a_plan_the_user_may_drop_stores_nothing() -> None:
    message = "I might go to the farmers market tomorrow, or not, depends on the weather"
    assert RuleEditor().edit(message, EditorContext(NOW, "u", None, [])).output.new_memories == []


def test_a_state_named_by_its_length_is_temporary_with_that_end() -> None:
    (note,) = (
        RuleEditor()
        .edit(
            "doing a 7-day sugar detox starting today, no desserts at all", EditorContext(NOW, "u", None, [])
        )
        .output.new_memories
    )
    assert note.type == "temporary" and note.expires_at == NOW + timedelta(days=7)


def test_a_noun_phrase_lead_in_is_no_order() -> None:
    """ "change of plans: ..." starts with a verb of the command list, but it is news, not a request."""
    out = RuleEditor().edit(
        "change of plans: reunion moved to Killarney, same date", EditorContext(NOW, "u", None, [])
    )
    assert [m.content for m in out.output.new_memories] == [
        "change of plans: reunion moved to Killarney, same date"
    ]
    assert (
        RuleEditor()
        .edit("change the colour of the button", EditorContext(NOW, "u", None, []))
        .output.new_memories
        == []
    )


def test_a_time_to_run_is_no_deadline() -> None:
    (goal,) = (
        RuleEditor()
        .edit("My goal is to finish in 2 hours 10.", EditorContext(NOW, "u", None, []))
        .output.new_memories
    )
    assert goal.type != "deadline" and goal.expires_at is None
    (due,) = (
        RuleEditor()
        .edit("The report is due in 2 hours.", EditorContext(NOW, "u", None, []))
        .output.new_memories
    )
    assert due.type == "deadline"


def test_each_item_of_a_list_about_the_user_is_a_fact_of_theirs() -> None:
    message = (
        "some background on me:\n- 61, retired nurse\n- live near Aarhus\n- a greyhound called Flint\n"
        "- what's a good knitting podcast?"
    )
    out = RuleEditor().edit(message, EditorContext(NOW, "u", None, [])).output
    assert [(m.type, m.content) for m in out.new_memories] == [
        ("fact", "61, retired nurse"),
        ("fact", "live near Aarhus"),
        ("fact", "a greyhound called Flint"),
    ]


def test_a_time_of_day_that_bounds_a_habit_is_no_deadline() -> None:
    for message in (
        "only snag is i can only train before 6am, after that its school run and work till late",
    ):
        out = RuleEditor().edit(message, EditorContext(NOW, "u", None, [])).output
        assert all(m.type != "deadline" and m.expires_at is None for m in out.new_memories), out
    (due,) = (
        RuleEditor()
        .edit("Hand in the form before 5pm", EditorContext(NOW, "u", None, []))
        .output.new_memories
    )
    assert due.type == "deadline" and due.expires_at is not None


# -- 2026-12-06 (twelfth session) -------------------------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "parts"),
    [
        ("I'm vegan and my partner hates mushrooms", ["I'm vegan", "my partner hates mushrooms"]),
        (
            "She uses a wheelchair, and I get horribly seasick so no boat tours",
            ["She uses a wheelchair", "I get horribly seasick so no boat tours"],
        ),
        ("I'm a nurse, my husband works days, we have twins (Maya and Leo)", None),
        # one subject of two people, a request with its reason, a clause that points back at the
        # one before ("it", "then") and a question stay whole
        ("My partner Ilse and I live in Dunmarrow.", []),
        ("My sister Ana and I are going to Lisbon", []),
        ("I'm on warfarin so check anything you suggest for interactions.", []),
        ("make sure the recipe has no peanuts whatsoever, I carry an epipen", []),
        ("Studying for the AWS Solutions Architect exam, I'm sitting it in November.", []),
        ("moving to Ostbrook in January, and I need to sell my piano before then", []),
        ("Should I book it and we go together?", []),
        # "then" joins two clauses as "and" does
        (
            "My contract at Pellow Labs is up in March, then I start at Ostrander Bakery.",
            ["My contract at Pellow Labs is up in March", "I start at Ostrander Bakery."],
        ),
        # and in other languages, the user (or one of theirs) the subject, or a verb of theirs
        (
            "Meine Tochter heißt Frieda und wir wohnen in Lindau.",
            ["Meine Tochter heißt Frieda", "wir wohnen in Lindau."],
        ),
        (
            "Trabalho como enfermeira no hospital e tenho três gatos.",
            ["Trabalho como enfermeira no hospital", "tenho três gatos."],
        ),
        (
            "Je travaille de nuit à la gare et mon mari garde les enfants.",
            ["Je travaille de nuit à la gare", "mon mari garde les enfants."],
        ),
        ("Fui al mercado y compré fruta.", []),
        # the user named second in a subject of two, after a lead-in whose words are no verb
        ("Garden planning: my neighbour Odile and I are building a pond.", []),
        ("After the meeting my boss and I were exhausted.", []),
    ],
)
def test_each_clause_with_its_own_subject_is_a_statement_of_its_own(
    sentence: str, parts: list[str] | None
) -> None:
    from memopilot.write.sentences import clauses

    if parts is None:
        parts = [p.strip() for p in sentence.split(",")]
    assert clauses(sentence) == (parts or [sentence])


def test_two_things_told_in_one_sentence_are_two_memories() -> None:
    out = edit("can you suggest some reading? I prefer short books and I'm learning Rust this year")
    assert [(m.type, m.content) for m in out.new_memories] == [
        ("preference", "I prefer short books"),
        ("learning_goal", "I'm learning Rust this year"),
    ]


def test_a_number_then_a_full_stop_ends_an_english_sentence() -> None:
    from memopilot.write.sentences import split_sentences

    assert split_sentences("Tidewell now goes live on June 22. can you redo the checklist?") == [
        "Tidewell now goes live on June 22.",
        "can you redo the checklist?",
    ]
    assert split_sentences("ran my first half in October, 2:04. want to go sub-2") == [
        "ran my first half in October, 2:04.",
        "want to go sub-2",
    ]
    # a German ordinal day is no sentence end
    assert split_sentences("Ich muss bis zum 20. den Vertrag abgeben.") == [
        "Ich muss bis zum 20. den Vertrag abgeben."
    ]


@pytest.mark.parametrize(
    "message",
    [
        "For a worksheet, translate these example sentences into German: 'I have two brothers. I live "
        "in a small town. I am allergic to cats.'",
        'In the song line "I left my heart in San Francisco", is that iambic?',
    ],
)
def test_a_quotation_in_single_quotes_or_named_as_a_line_is_no_news_of_the_user(message: str) -> None:
    assert RuleEditor().edit(message, context()).output.new_memories == []


def test_an_arrangement_in_the_progressive_is_dated() -> None:
    (memory,) = [
        m
        for m in RuleEditor()
        .edit("I'm presenting the migration plan to the CTO on Thursday", context())
        .output.new_memories
    ]
    assert "Thursday (2026-03-05)" in memory.content  # said on Wednesday 4 March 2026


def test_an_item_added_to_my_list_or_a_reminder_for_me_is_a_task() -> None:
    for message in ("pls add 'clear the gutters' to my list", "Reminder for me: collect the dry cleaning"):
        assert [m.type for m in learned_only_all(message)] == ["task"], message
    # a reminder with its day is due then (a task kept no end and stayed in every context)
    (dated,) = learned_only_all("Reminder for me: collect the dry cleaning on Friday")
    assert dated.type == "deadline" and dated.expires_at is not None
    assert dated.expires_at.date().isoformat() == "2026-03-06"
    # a list of something else is no to-do list
    assert all(m.type != "task" for m in learned_only_all("Lisbon is high up on my list of places to visit"))


def learned_only_all(message: str) -> list[NewMemory]:
    return RuleEditor().edit(message, context()).output.new_memories


def test_a_to_do_list_on_one_line_is_a_task_per_item() -> None:
    for message, tasks in (
        (
            "Things I need to do: renew my passport, call the plumber about the boiler, and order "
            "Ingrid's present",
            ["renew my passport", "call the plumber about the boiler", "order Ingrid's present"],
        ),
        (
            "add to my list: get the kids' flu shots, and book the chimney sweep",
            ["get the kids' flu shots", "book the chimney sweep"],
        ),
        # the same asked for above a bulleted list
        (
            "add to my list:\n- renew the boat licence\n- collect the rugs from the cleaner\n"
            "- email Mr. Abara",
            ["renew the boat licence", "collect the rugs from the cleaner", "email Mr. Abara"],
        ),
    ):
        out = RuleEditor().edit(message, context()).output
        assert [(m.type, m.content) for m in out.new_memories] == [("task", t) for t in tasks]
    # a label that names no list is no list
    out = RuleEditor().edit("Note: I moved to Leeds, and I love it", context()).output
    assert all(m.type != "task" for m in out.new_memories)


def test_a_clause_kept_alone_is_its_whole_sentence() -> None:
    """Parting a sentence keeps two things apart; a clause kept alone would lose what the rest
    said of it, which later judgements read (an old "Marco is an architect" was no longer
    replaced by "my partner is Daniel now" once "and we're thinking about a trip" was cut off)."""
    (memory,) = edit("I prefer short books and my partner thinks about learning Rust").new_memories
    assert memory.content == "I prefer short books and my partner thinks about learning Rust"


def learned_memories(message: str) -> list[tuple[str, str]]:
    return [(m.type, m.content) for m in learned_edit(message).new_memories]


def test_clauses_of_the_first_memorys_sentence_are_kept_apart() -> None:
    """The second-memory bar is for a second thing said, not for the other clause of the sentence
    that gave the first: kept, it is its own memory; dropped, the sentence stayed whole with it."""
    memories = learned_memories(
        "can you suggest a few weeknight dinners? I'm vegetarian and my girlfriend can't stand olives"
    )
    assert [content for _, content in memories] == ["I'm vegetarian", "my girlfriend can't stand olives"]


def test_a_passing_state_beside_a_lasting_clause_keeps_its_end() -> None:
    """ "I sprained my ankle and I'm on crutches for the next ten days": the crutches were dropped as
    a second memory, the ankle clause was stored as its whole sentence, and a lasting memory said
    "on crutches" weeks later."""
    memories = learned_memories(
        "I sprained my ankle and I'm on crutches for the next ten days, so nothing that involves "
        "walking much. Can you suggest something to do indoors?"
    )
    crutches = [(kind, content) for kind, content in memories if "crutches" in content]
    assert crutches == [
        (
            "temporary",
            "I'm on crutches for the next ten days, so nothing that involves walking much"
            " (until 2026-03-14).",
        )
    ]


def test_a_stay_of_a_stated_length_is_temporary() -> None:
    memory = only("I'm in Sorvik for a two-week work trip, so use Sorvik time for anything you schedule.")
    assert memory.type == "temporary"
    assert memory.expires_at == NOW + timedelta(weeks=2)
    # one booked for later is no state of now
    assert learned_memories("I'm in Sorvik for a two-week work trip in May")[0][0] != "temporary"


def test_a_past_event_with_a_duration_is_no_passing_state() -> None:
    (memory,) = learned_edit(
        "I deployed to prod on a Friday afternoon without running the migrations and broke checkout "
        "for two hours."
    ).new_memories
    assert memory.type != "temporary" and memory.expires_at is None
    # a state said beside it still ends
    assert only("I broke my leg so I'm on crutches for six weeks.").type == "temporary"


@pytest.mark.parametrize(
    "message",
    [
        "I'm on blood thinners for a heart condition, so I have to be careful with ibuprofen.",
        "I need to avoid shellfish, it makes me sick.",
    ],
)
def test_what_the_user_has_to_be_careful_with_is_a_standing_rule_not_a_to_do(message: str) -> None:
    assert [m.type for m in edit(message).new_memories] == [MemoryType.CONSTRAINT]


def test_no_style_request_is_a_lasting_preference() -> None:
    assert only("No emojis in your replies please, they drive me nuts.").type == "preference"
    assert edit("No emojis in this next reply, please.").new_memories == []


def test_days_ahead_in_a_timetable_or_a_moved_date_are_written_out() -> None:
    """Said on Wednesday 4 March 2026."""
    (job,) = learned_memories("I start my new job at Quillmark on Monday!! what should I do in my first week")
    assert job == ("fact", "I start my new job at Quillmark on Monday (2026-03-09)!!")
    (flight,) = learned_memories("The airline moved our Marrowby flight, it's now on the 14th. Do I rebook?")
    assert "the 14th (2026-03-14)" in flight[1]
    assert learned_memories("I proposed to Ana on Saturday.") == [("fact", "I proposed to Ana on Saturday.")]


def test_a_day_someone_else_gives_is_kept() -> None:
    (booster,) = learned_memories(
        "The vet says Biscuit needs her booster shot in three weeks. Should I book now?"
    )
    assert booster[0] == "deadline" and "(2026-03-25)" in booster[1]


def test_a_request_for_everything_is_a_lasting_preference() -> None:
    assert only("Use metric units for everything please, even though I live in Ohio.").type == "preference"


def test_a_reminder_or_a_moved_day_is_due_then() -> None:
    """Said on Wednesday 4 March 2026."""
    (flight,) = learned_memories("ugh the airline moved my nairobi flight to saturday morning")
    assert flight[0] == "deadline" and "(2026-03-07)" in flight[1]
    (plants,) = learned_memories("remind me to water Mrs. Okonkwo's tomato plants on Saturday, she's away")
    assert plants[0] == "deadline" and "(2026-03-07)" in plants[1]
    # every weekend, not one day; a year is no day to be reminded on
    (runs,) = learned_memories(
        "so my runs have moved to Saturday and Sunday now, weekday mornings are impossible"
    )
    assert runs[0] != "deadline" and "(2026" not in runs[1]
    (present,) = learned_memories("Remind me to get her something nice this year.")
    assert present[0] != "deadline"


def test_the_outcome_after_long_story_short_is_a_statement_of_its_own() -> None:
    from memopilot.write.sentences import split_sentences

    assert split_sentences(
        "The school closed its art club, so long story short, I signed my son up for pottery classes."
    ) == ["The school closed its art club", "I signed my son up for pottery classes."]
    assert split_sentences("To cut a long story short: we got a puppy.") == ["we got a puppy."]


def test_a_list_of_clauses_after_a_lead_in_is_parted_and_kept_as_siblings() -> None:
    from memopilot.write.sentences import clauses, lists_clauses

    sentence = "Some background: I work nights, I'm a type 2 diabetic, and I live with my aunt."
    assert clauses(sentence) == [
        "Some background: I work nights",
        "I'm a type 2 diabetic",
        "I live with my aunt.",
    ]
    assert lists_clauses(sentence)
    assert not lists_clauses("I play bass in a covers band, we gig about once a month.")
    assert not lists_clauses("I'm vegan and my partner hates mushrooms.")  # two: "and" says it


def test_an_event_told_in_the_past_tense_names_when_it_happened() -> None:
    from memopilot.write.sentences import tells_past_event

    assert tells_past_event("Had a call with the school today")
    assert tells_past_event("I went to the dentist this morning")
    assert not tells_past_event("Working from home today")
    assert not tells_past_event("My train is delayed today")
    assert not tells_past_event("Pulled a muscle, so no lifting for a week")
    assert not tells_past_event("I broke my wrist so I can't type for a week")
    assert not tells_past_event("hurt my back at the gym, physio says walking only for the next ten days")
    assert not tells_past_event("Caught a cold, so no calls until Thursday please")
    # a time as the subject: "this weekend" was, not is
    assert tells_past_event("Honestly this week was a write-off.")
    assert tells_past_event("It was a slow weekend at the allotment")
    assert not tells_past_event("This week I'm house-sitting for my aunt")


def test_a_past_verb_is_read_from_the_inflection_tables() -> None:
    """Irregular verbs a hand-kept list missed ("hid", "spoke") are past; a form that is also the
    present ("I read every night") is not."""
    from memopilot.write.sentences import tells_past_event

    assert tells_past_event("The cat hid under the sink for a day and a half.")
    assert tells_past_event("Yesterday I spoke to my landlord about the damp")
    assert tells_past_event("Last week my sister moved out")
    assert not tells_past_event("I read every night before bed")
    out = RuleEditor().edit(
        "The cat hid under the sink for a day and a half.", EditorContext(NOW, "u", None, [])
    )
    assert [m for m in out.output.new_memories if m.type == MemoryType.TEMPORARY.value] == []


def test_the_day_of_what_happened_is_no_end_of_a_state() -> None:
    """Saying "Jonas started fourth grade this week" tells when it began, not a state that ends on
    Sunday (it was kept as a temporary memory expiring then)."""
    for message in ("Jonas started fourth grade this week.", "Ines started her new job this week."):
        out = RuleEditor().edit(message, EditorContext(NOW, "u", None, [])).output
        assert [m for m in out.new_memories if m.type == MemoryType.TEMPORARY.value] == []
        assert [m for m in out.new_memories if m.expires_at is not None] == []


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        # a vital fact and the rule it sets for the assistant
        (
            "I'm severely allergic to sesame, anaphylaxis-level. Never put sesame in a recipe for me.",
            "critical",
        ),
        (
            "I have a severe latex allergy, emergency-room severe. Any first-aid advice you give me "
            "must skip latex gloves.",
            "critical",
        ),
        # (twenty-sixth session) a wish told right after the vital fact
        (
            "Critical: my daughter is severely allergic to wasp stings, she needs her EpiPen within "
            "minutes. Please always keep that in mind when we plan picnics.",
            "critical",
        ),
        # a mistake and its lesson
        (
            "Lesson learned: I left the oven on overnight before our trip. From now on I check the dials "
            "before leaving.",
            "mistake",
        ),
    ],
)
def test_a_vital_fact_or_a_mistake_keeps_its_consequence_in_one_memory(message: str, kind: str) -> None:
    memory = learned_only(message)
    assert memory.type == kind
    assert memory.content == message


def test_what_else_a_vital_message_tells_stays_apart() -> None:
    """Only what names the vital thing, points back at it, or is vital too joins it: a lasting fact
    folded into a critical memory could never be superseded."""
    out = learned_edit(
        "I'm severely allergic to shellfish. We moved to Harrowgate with our two dogs last year."
    )
    first = out.new_memories[0]
    assert first.type == "critical"
    assert "Harrowgate" not in first.content


def test_a_statement_led_by_decided_is_a_decision() -> None:
    """ "Decided: keeping the van after all" was dropped: no "we decided" cue, and the type model
    alone was unsure of it. A lead-in that says nothing is settled is no decision."""
    assert [
        (m.type, m.content)
        for m in learned_edit("Decided: keeping the van after all. Too handy.").new_memories
    ] == [("decision", "Decided: keeping the van after all.")]
    assert only("Decision made: the twins start swimming lessons at Harlow Baths.").type == "decision"
    assert all(
        m.type != "decision"
        for m in learned_edit("Still undecided: the oak table or the pine one?").new_memories
    )


def test_picking_something_up_is_no_choice() -> None:
    """ "picked up" collects a thing (or catches a cold); only "picked" alone chooses."""
    assert (
        classify("We picked the sage green tiles for the downstairs loo.", learned=False)
        is MemoryType.DECISION
    )
    assert classify("We picked up the new sofa from the warehouse this morning.", learned=False) is None
    assert classify("I picked up a stomach bug on the ferry.", learned=False) is None


def test_a_past_form_after_a_determiner_tells_no_past() -> None:
    """ "a paid plan", "the used car": a thing described, not a past told, so a task's day ahead
    is still written into it (Wednesday 4 March: the 19th is 19 March)."""
    task = only("Put on my list: cancel the music trial before it becomes a paid plan on the 19th.")
    assert task.type == "task" and "(2026-03-19)" in task.content


# Twenty-fifth session.


@pytest.mark.parametrize(
    ("message", "due"),
    [
        # Wednesday 4 March: "the 12th" is 12 March, "Friday" the 6th
        ("Could you remind me on the 12th to renew the parking permit?", eod(2026, 3, 12)),
        ("can u please remind me to book the piano tuner this Friday", eod(2026, 3, 6)),
    ],
)
def test_a_request_to_be_reminded_is_a_reminder_due_that_day(message: str, due: datetime) -> None:
    """A reminder asked for as a question was dropped as one; asking to be told something now
    ("can you remind me what ... is") stays a question."""
    memory = only(message)
    assert memory.type == "deadline"
    assert memory.expires_at == due
    assert edit("Can you remind me what the boiling point of ethanol is?").new_memories == []


def test_what_must_be_done_before_a_date_already_named_is_due_then() -> None:
    memory = only("The builder's estimate holds until the 20th, we have to choose one by then.")
    assert (memory.type, memory.expires_at) == ("deadline", eod(2026, 3, 20))
    memory = only("Our boiler cover runs out on the 18th so I must find a new policy before then.")
    assert (memory.type, memory.expires_at) == ("deadline", eod(2026, 3, 18))


def test_a_price_quote_from_a_firm_is_no_quotation() -> None:
    """ "the quote from <a firm>" is its price; a quotation has its words after the source."""
    memory = only("The quote from Haskett Glazing is only good until the 9th, need to decide by then.")
    assert memory.type == "deadline"
    assert edit('A line from Rilke: "the only journey is the one within."').new_memories == []


def test_a_lapse_of_memory_is_no_taste() -> None:
    """ "I always forget how many grams a cup holds" asks for a fact now: no preference."""
    for message in (
        "I always forget how many grams of flour a cup holds.",
        "I always mix up stalactites and stalagmites",
    ):
        assert all(m.type != "preference" for m in edit(message).new_memories), message


def test_a_stay_of_a_later_season_is_not_temporary_from_now() -> None:
    """Said in March, "this summer ... for three weeks" is a plan, not a note that expires in three weeks."""
    message = "This summer we're taking the kids on a canal boat for three weeks."
    assert all(m.type != "temporary" for m in learned_edit(message).new_memories)
    assert only("I'm house-sitting for my aunt for two weeks.").type == "temporary"


def test_a_rule_for_whatever_the_assistant_does_lasts() -> None:
    """ "in anything you write for me" makes a request a standing rule, not one for this reply."""
    memory = only("Please don't use exclamation marks in anything you write for me.")
    assert memory.type == "preference"
    assert edit("Please don't use exclamation marks in this email.").new_memories == []


def test_what_is_ruled_out_is_a_constraint() -> None:
    assert only("Shellfish is off the table for our wedding menu.").type == "constraint"
    assert only("Red-eye flights are a hard no.").type == "constraint"
    assert edit("Honestly that plan is a no-brainer.").new_memories == []
    # (a taste, which the rules leave to the preference reading)
    assert all(m.type != "constraint" for m in edit("Musicals are a hard no for me.").new_memories)


def test_the_rule_right_after_a_vital_fact_and_its_own_clauses_join_it() -> None:
    (memory,) = edit("Never forget this: I have a pacemaker. Magnetic therapy gadgets are a no.").new_memories
    assert memory.type == "critical" and "Magnetic" in memory.content
    (memory,) = learned_edit(
        "Vital: I'm allergic to penicillin and I come out in hives within minutes."
    ).new_memories
    assert memory.type == "critical" and "hives" in memory.content
    assert [
        m.type
        for m in learned_edit("I'm severely allergic to walnuts and my brother hates olives.").new_memories
    ] == [
        "critical",
        "fact",
    ]


@pytest.mark.parametrize(
    "message",
    [
        "Say I decided to retire at 55 and moved to the coast — how much would the pension pay?",
        "Remember that advert with the dancing gorilla and the drums? who made it",
        "Translate into German: 'I always take the stairs, I never use lifts.'",
    ],
)
def test_a_supposition_a_half_remembered_thing_or_words_to_translate_store_nothing(message: str) -> None:
    assert learned_edit(message).new_memories == []


def test_a_quoted_chore_added_to_a_list_is_still_a_task() -> None:
    assert only("add 'descale the kettle' to my to-do list").type == "task"


def test_a_reminder_asked_about_a_named_thing_keeps_the_thing() -> None:
    """ "can you remind me about the council tax bill? it's due in a week": the bill is kept (the
    deadline alone said only "it's due in a week")."""
    contents = " ".join(
        m.content
        for m in edit("can you remind me about the council tax bill? it's due in a week").new_memories
    )
    assert "council tax" in contents


@pytest.mark.parametrize(
    ("message", "name"),
    [
        ("We adopted a rescue lurcher last weekend! His name's Biscuit and he hates the hoover.", "Biscuit"),
        ("Need to cancel the trial of that language app before it bills me. Lingora it's called", "Lingora"),
        ("Bought a second-hand car on Saturday. It's a green Toyota Yaris, 2015.", "Yaris"),
    ],
)
def test_the_name_said_after_a_memory_joins_it(message: str, name: str) -> None:
    """Alone, "His name's Biscuit" reads as chatter; the memory of the dog keeps its name."""
    assert name in learned_only(message).content


def test_an_answer_to_a_request_to_remember_names_what_was_asked() -> None:
    """ "It's the 2nd of August" alone tells no later turn whose birthday it was."""
    memory = learned_only("Could you remember my nephew's birthday for me? It's the 2nd of August.")
    assert memory.content.startswith("My nephew's birthday is the 2nd of August")


def test_a_request_to_remember_a_whole_statement_is_left_as_said() -> None:
    """ "Remember that ..." holds a statement of its own, and "It's" after it is not its value."""
    for memory in learned_only_all("Can you remember that I lent Tomas my drill? It's the cordless one."):
        assert " is the cordless one" not in memory.content


def test_a_feeling_said_after_a_memory_stays_out_of_it() -> None:
    assert "fluffy" not in learned_only("We got a kitten on Sunday! It's so tiny and fluffy.").content
