"""Deterministic contradiction rules (SPEC section 5, step 5): which old memory a statement replaces."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest

from memopilot.domain import SUMMARY_TAG, Memory, MemoryState, MemoryType
from memopilot.write.contradictions import Supersession, find_supersessions, slot_of

T = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
P, J, D, C, DL, TK, CR, LG, EP = (
    MemoryType.PREFERENCE,
    MemoryType.PROJECT,
    MemoryType.DECISION,
    MemoryType.CONSTRAINT,
    MemoryType.DEADLINE,
    MemoryType.TASK,
    MemoryType.CRITICAL,
    MemoryType.LEARNING_GOAL,
    MemoryType.EPISODE,
)


def mem(content: str, type: MemoryType = MemoryType.PROJECT, **changes) -> Memory:
    return Memory(user_id="u1", content=content, type=type, created_at=T, updated_at=T, **changes)


# Unrelated memories of many types: none of them may ever be found for any case below.
DISTRACTORS: list[tuple[str, MemoryType]] = [
    ("I have a golden retriever named Biscuit", P),
    ("Never commit secrets to the repository", C),
    ("Dana prefers short status updates in the morning", P),
    ("The quarterly review happens in the Oslo office", J),
    ("Use type hints in all public functions", C),
    ("Learning goal: understand Kubernetes networking", LG),
    ("I forgot to run the migrations before the demo", MemoryType.MISTAKE),
    ("Renew the TLS certificate for the docs site", TK),
    ("The logo uses a teal and orange palette", J),
    ("My sister is a nurse in Porto", P),
    ("The mobile app targets Android first", D),
    ("I am allergic to peanuts", CR),
    ("User: can you summarise the retro notes from last sprint?", EP),
    ("The data warehouse refreshes every night", J),
    ("Prefer pure functions over classes in the scoring code", P),
]

# (old memory, its type, new statement, its type, structural near-misses that must stay untouched)
SUPERSEDES: list[tuple[str, MemoryType, str, MemoryType, tuple[str, ...]]] = [
    # tools
    ("We use Jenkins for CI", J, "We use GitHub Actions for CI now", D, ("We use Postgres for billing",)),
    ("My editor is Vim", P, "My editor is VS Code", P, ("My terminal is iTerm",)),
    ("I use Vim as my editor", P, "My editor is Neovim now", P, ("I use zsh as my shell",)),
    ("We track issues in Jira", J, "We switched from Jira to Linear", D, ("We track time in Harvest",)),
    (
        "The backend is written in Python",
        J,
        "We write the backend in Rust now",
        D,
        ("The frontend is written in TypeScript",),
    ),
    ("We host the app on Heroku", J, "The app is hosted on Fly.io", J, ("The docs are hosted on Netlify",)),
    ("Our chat tool is Slack", J, "We replaced Slack with Discord", D, ()),
    ("We deploy with Ansible", J, "Terraform replaced Ansible for deployments", D, ()),
    (
        "Use black for formatting",
        C,
        "Use ruff instead of black for formatting",
        C,
        ("Use mypy for type checking",),
    ),
    ("We store uploads in S3", J, "We moved uploads from S3 to Google Cloud Storage", D, ()),
    # places
    ("I live in Berlin", P, "I live in Lisbon now", P, ("My sister lives in Madrid",)),
    ("I'm based in Toronto", P, "I moved to Vancouver last month", P, ()),
    (
        "The team offsite is in Lisbon",
        J,
        "The team offsite moved to Madrid",
        J,
        ("The team dinner is in Porto",),
    ),
    ("Our office is at 12 Baker Street", J, "Our office is at 40 King Road now", J, ()),
    (
        "The hackathon is in Austin",
        J,
        "Scratch that, the hackathon is in Denver",
        J,
        ("The meetup is in Chicago",),
    ),
    # people
    ("The meeting is with Dana", TK, "The meeting is with Omar", TK, ("The meeting is on Friday",)),
    ("My manager is Priya", J, "My manager is now Tom", J, ("My mentor is Alex",)),
    ("The billing service owner is Dana", J, "The owner of the billing service is Omar", J, ()),
    ("I report to Maria", J, "I no longer report to Maria; I report to Kenji", J, ()),
    ("Our designer is Lena", J, "Lena is out, Marco is our designer now", D, ("Our copywriter is Sam",)),
    # numbers and money
    ("The budget is $5,000", C, "The budget is $8,000", C, ("The deadline is March 3",)),
    ("The marketing budget is 5k euros", J, "We raised the marketing budget to 7k euros", D, ()),
    ("We have 5 engineers on the team", J, "We have 8 engineers now", J, ("We have 2 designers",)),
    (
        "The API rate limit is 100 requests per minute",
        C,
        "The API rate limit is now 500 requests per minute",
        C,
        (),
    ),
    ("The subscription costs $20 per month", J, "The subscription costs $25 per month now", J, ()),
    (
        "Code reviews require 2 approvals",
        C,
        "Code reviews now require 1 approval",
        C,
        ("Releases require 3 sign-offs",),
    ),
    # dates and times
    ("The deadline is March 3", DL, "The deadline moved to March 10", DL, ("The budget is $5,000",)),
    ("The launch is on May 5", DL, "Correction: the launch is on May 12", DL, ()),
    ("The standup is at 9am", J, "The standup is at 10am now", J, ("The retro is at 4pm",)),
    (
        "The sprint review is on Thursday",
        TK,
        "We moved the sprint review to Friday",
        TK,
        ("Sprint planning is on Monday",),
    ),
    ("The report is due Friday", DL, "The report is due Monday instead", DL, ()),
    ("The demo is scheduled for Tuesday", DL, "The demo was pushed to Thursday", DL, ()),
    ("We meet on Mondays", TK, "We meet on Wednesdays now", TK, ()),
    # policies
    ("Deploys are allowed on Fridays", C, "Deploys are no longer allowed on Fridays", C, ()),
    (
        "Our refund policy is 30 days",
        C,
        "Our refund policy is now 14 days",
        C,
        ("Our shipping policy is 5 days",),
    ),
    ("Password rotation is every 90 days", C, "Password rotation is every 60 days now", C, ()),
    ("The office dress code is casual", C, "The dress code is formal now", C, ()),
    ("The repo is private", J, "The repo is public now", D, ()),
    # languages
    ("Always answer in Spanish", P, "Reply to me in English from now on", P, ()),
    ("The app's default language is English", J, "The default language of the app is German now", D, ()),
    ("I'm learning Japanese", LG, "I stopped learning Japanese; I'm learning Korean now", LG, ()),
    ("The docs are written in French", J, "The docs are written in English now", D, ()),
    # audiences
    ("Our audience is students", J, "Our target audience is enterprises", D, ("Our sponsor is Acme",)),
    ("The newsletter is aimed at developers", J, "The newsletter is aimed at product managers now", D, ()),
    # preferences
    ("I like tea", P, "I don't like tea anymore", P, ("I like jazz",)),
    ("I prefer tabs over spaces", P, "I prefer spaces over tabs", P, ()),
    ("I love spicy food", P, "I hate spicy food now", P, ("I love hiking",)),
    ("I prefer dark mode", P, "I changed my mind about dark mode: light mode please", P, ()),
    ("I enjoy running in the morning", P, "I'm not into running anymore", P, ()),
    ("I prefer concise answers", P, "Actually, I prefer detailed answers", P, ("I prefer metric units",)),
    ("I'm a vegetarian", P, "I'm not vegetarian anymore", P, ()),
    # naming and misc
    ("The project is called Orion", J, "Let's call the project Nimbus instead", D, ()),
    ("We use Jenkins for CI", J, "We switched from Jenkins to GitHub Actions", D, ()),
    ("Our CI tool is Jenkins", J, "We use GitHub Actions for CI", D, ()),
    ("Instead of Python we will write the CLI in Go", D, "Actually, we'll write the CLI in Rust", D, ()),
]


def _expected_rules() -> set[str]:
    return {"preference_reversal", "negation", "same_slot_new_value", "change_marker", "correction"}


@pytest.mark.parametrize(
    ("old", "old_type", "new", "new_type", "near"), SUPERSEDES, ids=[c[2] for c in SUPERSEDES]
)
def test_supersedes_the_right_memory_only(
    old: str, old_type: MemoryType, new: str, new_type: MemoryType, near: tuple[str, ...]
) -> None:
    target = mem(old, old_type)
    index = SUPERSEDES.index((old, old_type, new, new_type, near))
    pool = [DISTRACTORS[(index + k) % len(DISTRACTORS)] for k in range(4)]
    others = [mem(text, kind) for text, kind in pool] + [mem(text) for text in near]
    found = find_supersessions(new, new_type, [*others[:2], target, *others[2:]])
    assert [f.old.id for f in found] == [target.id], [(f.old.content, f.rule, f.reason) for f in found]
    assert found[0].rule in _expected_rules() and found[0].reason
    assert found[0].blocked is False


def test_there_are_enough_cases() -> None:
    assert len(SUPERSEDES) >= 45 and len(NOT_SUPERSEDED) >= 20


def test_no_distractor_is_ever_found_by_any_statement() -> None:
    others = [mem(text, kind) for text, kind in DISTRACTORS]
    for _, _, new, new_type, _ in SUPERSEDES:
        assert find_supersessions(new, new_type, others) == [], new


# (old memory, its type, new statement, its type): nothing may be superseded.
NOT_SUPERSEDED: list[tuple[str, MemoryType, str, MemoryType]] = [
    # different subjects / preferences on different things
    ("I like tea", P, "I like jazz", P),
    ("I like Italian food", P, "I like Thai food", P),
    ("I prefer dark mode", P, "I prefer short answers", P),
    ("Dana likes tea", P, "I don't like tea anymore", P),
    ("The frontend framework is React", J, "The backend framework is Django", J),
    ("The budget is $5,000", C, "The deadline is March 3", DL),
    ("The Q3 budget is $5,000", C, "The Q4 budget is $8,000", C),
    ("The deadline is March 3", DL, "The launch party is on March 10", DL),
    # additive facts
    ("We use Postgres for billing", J, "We use Redis for caching", J),
    ("I speak French", P, "I speak German", P),
    ("We have 3 cats", P, "We have 2 dogs", P),
    ("The meeting is on Friday", TK, "The meeting is with Omar", TK),
    ("The meeting is at 3pm", TK, "The meeting moved to Room 4", TK),
    ("The API is slow", J, "The API is stable", J),
    ("Sprint planning is on Monday", J, "We moved the standup from Monday to Tuesday", J),
    ("We use Jenkins for CI", J, "The Jenkins server needs a plugin update", TK),
    # questions and hedges mentioning the old value
    ("We use Jenkins for CI", J, "Do we still use Jenkins?", J),
    ("We use Jenkins for CI", J, "Should we switch from Jenkins to GitHub Actions", J),
    ("We use Jenkins for CI", J, "Maybe we should switch from Jenkins to GitHub Actions", J),
    ("The budget is $5,000", C, "Is the budget still $5,000?", C),
    # restatements of the same value
    ("The budget is $5,000", C, "The budget is $5000", C),
    ("I live in Berlin", P, "I live in Berlin, Germany", P),
    ("I like tea", P, "I really like tea", P),
    ("We switched from Jenkins to GitHub Actions in May", D, "We switched from Jenkins to GitHub Actions", D),
    ("My editor is Vim", P, "I use Vim as my editor", P),
    # negated other value, past events
    ("My editor is Vim", P, "My editor is not Emacs", P),
    ("I work at Google", J, "I worked at Meta years ago", J),
    # episodes are never superseded, and a new episode supersedes nothing
    ("User: we use Jenkins for CI", EP, "We use GitHub Actions for CI now", D),
    ("We use Jenkins for CI", J, "We switched from Jenkins to GitHub Actions", EP),
]


@pytest.mark.parametrize(
    ("old", "old_type", "new", "new_type"), NOT_SUPERSEDED, ids=[c[2] for c in NOT_SUPERSEDED]
)
def test_does_not_supersede(old: str, old_type: MemoryType, new: str, new_type: MemoryType) -> None:
    found = find_supersessions(new, new_type, [mem(old, old_type)])
    assert found == [], [(f.old.content, f.rule, f.reason) for f in found]


def test_critical_memories_come_back_blocked() -> None:
    critical = mem("The production database is PostgreSQL 14", CR)
    plain = mem("The staging database is PostgreSQL 14", J)
    found = find_supersessions("The production database is PostgreSQL 16", D, [critical, plain])
    assert len(found) == 1
    assert isinstance(found[0], Supersession)
    assert found[0].old is critical and found[0].blocked is True and found[0].rule == "same_slot_new_value"


def test_critical_blocked_by_change_marker() -> None:
    critical = mem("Always use Vault for secrets", CR)
    found = find_supersessions("We no longer use Vault; secrets live in AWS Secrets Manager", D, [critical])
    assert [(f.old.id, f.blocked, f.rule) for f in found] == [(critical.id, True, "change_marker")]


def test_pinned_memory_is_superseded_normally() -> None:
    pinned = mem("My editor is Vim", P, state=MemoryState.PINNED)
    found = find_supersessions("My editor is Helix now", P, [pinned])
    assert [(f.old.id, f.blocked) for f in found] == [(pinned.id, False)]


def test_summaries_and_inactive_memories_are_skipped() -> None:
    summary = mem("Summary: we use Jenkins for CI", J, tags=[SUMMARY_TAG])
    gone = mem("We use Jenkins for CI", J, state=MemoryState.SUPERSEDED)
    archived = mem("We use Jenkins for CI", J, state=MemoryState.ARCHIVED)
    assert find_supersessions("We use GitHub Actions for CI now", D, [summary, gone, archived]) == []


def test_several_old_values_of_one_slot_are_all_found() -> None:
    first = mem("The budget is $5,000", C)
    second = mem("The budget is $6,500", J)
    found = find_supersessions("The budget is $8,000", D, [first, second, mem("The deadline is May 1", DL)])
    assert {f.old.id for f in found} == {first.id, second.id}


def test_decision_replaces_project_fact_across_types() -> None:
    fact = mem("We use Jenkins for CI", J)
    found = find_supersessions("Decision: we use GitHub Actions for CI", D, [fact])
    assert [f.old.id for f in found] == [fact.id]


def test_rule_names_and_reasons() -> None:
    cases = {
        "The budget is $8,000": ("The budget is $5,000", "same_slot_new_value"),
        "I don't like tea anymore": ("I like tea", "preference_reversal"),
        "We switched from Jira to Linear": ("We track issues in Jira", "change_marker"),
    }
    for new, (old, rule) in cases.items():
        found = find_supersessions(new, D, [mem(old)])
        assert [f.rule for f in found] == [rule], new
    reason = find_supersessions("The budget is $8,000", D, [mem("The budget is $5,000")])[0].reason
    assert reason == "same slot 'budget' has a new value" and "5,000" not in reason


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Our target audience is enterprises", ("target audience", "enterprises")),
        ("Our audience is students", ("audience", "students")),
        ("We use Jenkins for CI", ("ci", "jenkins")),
        ("The budget is $5,000", ("budget", "$5,000")),
        ("The meeting is with Dana", ("meeting with", "dana")),
        ("I live in Lisbon now", ("self live", "lisbon")),
        ("The deadline moved to March 10", ("deadline", "march 10")),
        ("Jenkins is our CI tool", ("ci tool", "jenkins")),
        ("Do we still use Jenkins?", None),
        ("I like jazz", None),
    ],
)
def test_slot_of(text: str, expected: tuple[str, str] | None) -> None:
    assert slot_of(text) == expected


def test_multi_sentence_correction_carries_to_the_next_sentence() -> None:
    old = mem("The standup is at 9am", J)
    found = find_supersessions("Scratch that. The standup is at 10am.", J, [old])
    assert [(f.old.id, f.rule) for f in found] == [(old.id, "change_marker")]


# A realistic store: no memory in it may supersede another one.
STORE = """I prefer TypeScript over JavaScript for new projects
The user's name is Alex
Alex works as a data engineer at Contoso
We use Airflow for orchestration
The warehouse is Snowflake
The team uses dbt for transformations
Dashboards are built in Looker
The Q2 goal is to cut pipeline costs by 20%
The on-call rotation changes every Monday
Never run migrations on Friday afternoons
I like detailed explanations with code examples
I don't like long preambles
The staging environment is in eu-central-1
Production runs on Kubernetes
We use Terraform for infrastructure
Alex is learning Rust
The design review is on Wednesday at 2pm
Priya is the product manager
The API gateway is Kong
Logs go to Datadog
The mobile team ships every two weeks
The customer churn report is due on April 30
My laptop is a MacBook Pro
I use tmux and zsh
Answer in English
Keep replies short
We store secrets in Vault
The data retention policy is 90 days
Our main customers are hospitals
The company has 120 employees
I have two kids
My partner is a teacher
I drink oat milk
Lunch is usually at noon
The office is closed on public holidays
We deploy twice a week
The repository uses trunk-based development
Use conventional commits
Python version is 3.11
The linter is ruff
Tests must pass before merging
I'm allergic to shellfish
The budget for the offsite is $3,000
The offsite is in Lisbon
The offsite is from May 12 to May 14
I enjoy hiking on weekends
I hate meetings before 10am
The board meeting is on March 20
Marketing uses HubSpot
Support tickets are handled in Zendesk
The backup window is 2am to 4am
Dana is on parental leave until June
Omar owns the billing service
The billing service is written in Java
The search service is written in Go
We are migrating billing to Kotlin
My favorite editor theme is Solarized
The VPN is required for production access
The SLA is 99.9% uptime
The docs site is built with MkDocs""".splitlines()


def test_a_realistic_store_has_no_false_contradictions() -> None:
    memories = [mem(text) for text in STORE]
    for i, text in enumerate(STORE):
        found = find_supersessions(text, D, memories[:i] + memories[i + 1 :])
        assert found == [], (text, [f.old.content for f in found])


# Updates against that store: exactly the expected memory among all sixty.
UPDATES: list[tuple[str, str]] = [
    ("We replaced Airflow with Dagster", "We use Airflow for orchestration"),
    ("The warehouse is BigQuery now", "The warehouse is Snowflake"),
    ("Dashboards are built in Metabase now", "Dashboards are built in Looker"),
    ("The on-call rotation changes every Tuesday now", "The on-call rotation changes every Monday"),
    ("I don't like detailed explanations anymore", "I like detailed explanations with code examples"),
    ("The staging environment moved to us-west-2", "The staging environment is in eu-central-1"),
    ("Production runs on ECS now", "Production runs on Kubernetes"),
    ("We switched from Terraform to Pulumi", "We use Terraform for infrastructure"),
    ("The design review moved to Thursday at 3pm", "The design review is on Wednesday at 2pm"),
    ("Tom is the product manager now", "Priya is the product manager"),
    ("The API gateway is Envoy now", "The API gateway is Kong"),
    ("Logs go to Grafana Loki now", "Logs go to Datadog"),
    ("The customer churn report is due on May 15", "The customer churn report is due on April 30"),
    ("My laptop is a ThinkPad now", "My laptop is a MacBook Pro"),
    ("Answer in German from now on", "Answer in English"),
    ("We store secrets in AWS Secrets Manager instead of Vault", "We store secrets in Vault"),
    ("The data retention policy is 30 days", "The data retention policy is 90 days"),
    ("Our main customers are now banks", "Our main customers are hospitals"),
    ("The company has 150 employees", "The company has 120 employees"),
    ("I stopped drinking oat milk", "I drink oat milk"),
    ("Lunch is at 1pm now", "Lunch is usually at noon"),
    ("The linter is flake8 now", "The linter is ruff"),
    ("Python version is 3.12", "Python version is 3.11"),
    ("The offsite budget is $4,500", "The budget for the offsite is $3,000"),
    ("The offsite moved to Porto", "The offsite is in Lisbon"),
    ("I don't enjoy hiking anymore", "I enjoy hiking on weekends"),
    ("The board meeting was pushed to March 27", "The board meeting is on March 20"),
    ("Marketing switched from HubSpot to Salesforce", "Marketing uses HubSpot"),
    ("Sam owns the billing service now", "Omar owns the billing service"),
    ("The billing service is written in Kotlin now", "The billing service is written in Java"),
    ("The SLA is 99.5% uptime", "The SLA is 99.9% uptime"),
    ("The docs site is built with Docusaurus now", "The docs site is built with MkDocs"),
    ("Actually, my favorite editor theme is Dracula", "My favorite editor theme is Solarized"),
    ("We deploy daily now", "We deploy twice a week"),
    ("The VPN is no longer required for production access", "The VPN is required for production access"),
]


@pytest.mark.parametrize(("new", "expected"), UPDATES, ids=[u[0] for u in UPDATES])
def test_updates_against_a_realistic_store(new: str, expected: str) -> None:
    memories = [mem(text) for text in STORE]
    found = find_supersessions(new, D, memories)
    assert [f.old.content for f in found] == [expected]


MARKERS = [
    "We switched from Jenkins to GitHub Actions",
    "We moved from Jenkins to GitHub Actions",
    "We use GitHub Actions instead of Jenkins",
    "We no longer use Jenkins",
    "We don't use Jenkins anymore",
    "Jenkins is out, GitHub Actions is in",
    "We replaced Jenkins with GitHub Actions",
    "Jenkins was replaced by GitHub Actions",
    "We stopped using Jenkins",
    "We use GitHub Actions for CI, not Jenkins",
    "I changed my mind about Jenkins",
    "Actually, we use GitHub Actions for CI",
    "Correction: we use GitHub Actions for CI",
    "Scratch that, we use GitHub Actions for CI",
]


@pytest.mark.parametrize("new", MARKERS)
def test_every_change_marker_finds_the_old_memory(new: str) -> None:
    old = mem("We use Jenkins for CI", J)
    others = [mem(text, kind) for text, kind in DISTRACTORS] + [mem("We use Postgres for billing", J)]
    found = find_supersessions(new, D, [*others, old])
    assert [f.old.id for f in found] == [old.id]
    assert found[0].rule in {"change_marker", "same_slot_new_value"}


def test_is_fast_over_fifty_candidates() -> None:
    existing = [mem(text, kind) for text, kind in DISTRACTORS]
    existing += [mem(old, kind) for old, kind, *_ in SUPERSEDES[:35]]
    assert len(existing) == 50
    statements = [new for _, _, new, _, _ in SUPERSEDES]
    for new in statements:  # warm the per-text analysis cache for the stored memories
        find_supersessions(new, D, existing)
    start = time.perf_counter()
    rounds = 3
    for _ in range(rounds):
        for new in statements:
            find_supersessions(new, D, existing)
    per_call = (time.perf_counter() - start) / (rounds * len(statements))
    assert per_call < 0.005, f"{per_call * 1e6:.0f} µs per call"


def test_a_choice_made_in_the_end_marks_a_change() -> None:
    from memopilot.write.contradictions import marks_change

    assert marks_change("we ended up going with a warm terracotta in the end, looks amazing")
    assert not marks_change("we went with a warm terracotta, looks amazing")


def test_these_days_anywhere_marks_a_change() -> None:
    from memopilot.write.contradictions import marks_change

    assert marks_change("I teach pottery at the Wrenfield community centre these days.")
    assert marks_change("Work news: these days I manage the night desk at the Harbour Inn.")


@pytest.mark.parametrize(
    ("text", "marked"),
    [
        ("Our council tax goes up to 1,980 a year from April.", True),
        ("The gym put the membership up, so that's annoying.", True),
        ("They reduced my hours to 24 a week.", True),
        ("The nursery fee went down by 40 a month.", True),
        # (twenty-fifth session) the thing raised, then its figure; a raise said as it happens
        ("The council hiked our parking permit. It's 95 a year now.", True),
        ("Raising my pension contribution to 8 percent from May.", True),
        # (twenty-sixth session) the thing raised, then "up" or "down" before its figure
        ("Got a bonus, so I bumped the monthly allotment fund up to 75.", True),
        ("They cut the club fee down to 12 a session.", True),
        ("She raised the point at 3pm.", False),
        ("I raised my hand twice.", False),
        # no amount that rises or falls: a trip, a nap, a limit
        ("We're going up to Inverness for the weekend.", False),
        ("I put the baby down for a nap at two.", False),
        ("The minibus takes up to 12 people.", False),
    ],
)
def test_an_amount_said_to_go_up_or_down_marks_a_change(text: str, marked: bool) -> None:
    from memopilot.write.contradictions import marks_change

    assert marks_change(text) is marked


def test_actually_stressing_what_happened_marks_no_change() -> None:
    from memopilot.write.contradictions import marks_change

    assert not marks_change("Thanks for the tip, the vinegar trick actually worked on the kettle.")
    assert marks_change("Actually, my dentist is Dr. Lee now.")
    assert marks_change("I actually prefer green tea in the mornings.")


def test_a_decision_announced_with_a_colon_settles_a_choice() -> None:
    from memopilot.write.contradictions import settles_a_choice

    assert settles_a_choice("Final decision: the blue sofa, delivered in May.")
    assert settles_a_choice("Decision: we're keeping the old boiler one more winter.")
    assert not settles_a_choice("Still no decision on the sofa, we keep going back and forth.")


def test_a_lead_in_before_a_colon_is_not_part_of_the_change() -> None:
    """ "Heads up, my routine changed: I no longer swim in the mornings." read "heads up, routine
    changed" as part of what no longer holds, and no earlier memory held those words."""
    old = mem("I swim laps at the Brindlecombe Aquatic Centre every morning before work", MemoryType.FACT)
    other = mem("I cycle to the office on Fridays", MemoryType.FACT)
    found = find_supersessions(
        "Heads up, my routine changed: I no longer swim in the mornings.", MemoryType.FACT, [old, other]
    )
    assert [s.old.id for s in found] == [old.id]


def test_a_lead_in_before_a_dash_leaves_the_change_to_read() -> None:
    """ "Big news - I moved to X" was read as no statement at all (the dash fell out with the words
    before it, "big news i moved"): the lead-in goes, and the move is read."""
    from memopilot.write.contradictions import slot_of

    assert slot_of("Great news — I moved to Harrowdale in May!") == ("self live", "harrowdale")
    assert slot_of("Anna - my sister - lives in Rome") is not None


@pytest.mark.parametrize(
    ("text", "employer"),
    [
        ("I'm a dental nurse at Brookvale Dental, four days a week.", "brookvale dental"),
        ("I work as a sous chef at Marigold Kitchen in the old town.", "marigold kitchen"),
        ("I teach history at Oakworth Grammar.", "oakworth grammar"),
        ("Three weeks ago I started at Pellow Freight as a dispatcher.", "pellow freight"),
        ("I just started a new job at Tarnside Council.", "tarnside council"),
        # (twenty-seventh session) a start ahead: "I start at ...", "I'm starting at ..."
        ("I start at Quenby Architects as a junior designer on Monday.", "quenby architects"),
        ("I'm starting at Hollis Vets next week, finally!", "hollis vets"),
    ],
)
def test_a_job_told_any_way_is_where_the_user_works(text: str, employer: str) -> None:
    """(twenty-sixth session) "I'm a <role> at <Employer>", "I teach X at ...", "I started at ..."
    hold the slot of "I work at ...", so that a new employer replaces the old one."""
    assert slot_of(text) == ("self work at", employer)


def test_a_customers_place_or_a_past_job_is_no_employer() -> None:
    regular = slot_of("I'm a regular at Castor's Diner.")
    assert regular is None or regular[0] != "self work at"
    assert slot_of("I worked at Pellow Freight for years.") is None
    assert (slot_of("I start at 9 most days.") or ("",))[0] != "self work at"  # (a time, no name)


def test_a_new_employer_replaces_the_old_one_though_facts_add_up() -> None:
    old = mem("I'm a florist at Bellweather Flowers, mostly weddings.", MemoryType.FACT)
    new = "Since I started at Kingsbridge Library last month my mornings are calmer."
    (found,) = find_supersessions(new, MemoryType.FACT, [old])
    assert found.old is old and found.rule == "same_slot_new_value"
    other = mem("I went to Bellweather Flowers for the bouquet.", MemoryType.FACT)
    assert find_supersessions(new, MemoryType.FACT, [other]) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Oops, scratch that, wrong hall. It's at the community centre.", True),
        ("Wait, no, I got it wrong. The dentist is on Thursday.", True),
        ("Correction: the rent is 900, not 990.", True),
        ("I meant the blue one, not the green one.", True),
        ("Actually it's Tuesday now.", False),  # a change marker, read by the rules as such
        ("The wrong bus came again this morning.", False),
        ("Sorry for the late reply, busy week.", False),
    ],
)
def test_what_takes_back_what_was_just_said(text: str, expected: bool) -> None:
    from memopilot.write.contradictions import takes_back

    assert takes_back(text) is expected
