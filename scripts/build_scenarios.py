"""Writes src/memopilot/evaluation/scenarios.json, MemoPilot's own scenario suite.

Each scenario has its key turns written out here, plus two distractor turns drawn in turn from a
pool of everyday messages (small talk, questions, unrelated facts), so that every case is a
multi-turn conversation rather than a one-liner. Run: python scripts/build_scenarios.py
"""

from __future__ import annotations

import json
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "src" / "memopilot" / "evaluation" / "scenarios.json"

DISTRACTORS = [
    "The weather in Lisbon was lovely this week.",
    "Can you explain what a Python closure is?",
    "Thanks, that was helpful!",
    "I watched a documentary about octopuses last night.",
    "What's the difference between a list and a tuple?",
    "My neighbour's dog kept barking all morning.",
    "How do I center a div in CSS?",
    "Lunch today was a surprisingly good ramen.",
    "Could you summarise the article I pasted earlier?",
    "The train was twenty minutes late again.",
    "What does HTTP status 418 mean?",
    "I finally fixed the squeaky door hinge.",
    "Give me a regex that matches an email address.",
    "We had a long meeting about the office plants.",
    "How many bytes are in a kilobyte?",
    "The new coffee machine on our floor is loud.",
    "Translate 'good morning' into Italian.",
    "My sister sent photos from her trip to Peru.",
    "Why is the sky blue?",
    "I spent the weekend repainting the balcony.",
    "What is a good name for a houseplant?",
    "The printer on the third floor is jammed again.",
    "Explain big-O notation in one paragraph.",
    "I read two chapters of a mystery novel yesterday.",
]
_next = 0


def distract(n: int = 2) -> list[str]:
    global _next
    out = [DISTRACTORS[(_next + i) % len(DISTRACTORS)] for i in range(n)]
    _next += n
    return out


def turn(content: str, days_ago: float = 0, session: str = "s1", project: str | None = None) -> dict:
    t: dict = {"content": content, "session": session, "days_ago": days_ago}
    if project is not None:
        t["project_id"] = project
    return t


def S(
    id: str,
    category: str,
    key: list,
    question: str,
    expect: list,
    forbid: list | None = None,
    *,
    days_after: float = 0,
    project: str | None = None,
    q_project: str | None = None,
    distractors: int = 2,
) -> dict:
    """``key`` holds strings (said today, session s1) or turn dicts; distractors go in between."""
    turns = [k if isinstance(k, dict) else turn(k) for k in key]
    noise = distract(distractors)
    mixed: list[dict] = []
    for i, t in enumerate(turns):
        mixed.append(t)
        if i < len(noise):
            mixed.append(
                {
                    **turn(noise[i], t["days_ago"], t["session"]),
                    **({"project_id": t["project_id"]} if "project_id" in t else {}),
                }
            )
    for extra in noise[len(turns) :]:
        last = turns[-1]
        mixed.append(turn(extra, last["days_ago"], last["session"]))
    scenario: dict = {"id": id, "category": category}
    if project is not None:
        scenario["project_id"] = project
    q: dict = {"content": question, "days_after_last_turn": days_after}
    if q_project is not None:
        q["project_id"] = q_project
    scenario.update(turns=mixed, question=q, expect=expect, forbid=forbid or [])
    return scenario


SCENARIOS = [
    # --- preference ---------------------------------------------------------------------------
    S(
        "pref-indent-tabs",
        "preference",
        ["I prefer tabs over spaces for indentation.", "Let's start on the parser module tomorrow."],
        "How should you indent the code you write for me?",
        [["tabs"]],
    ),
    S(
        "pref-dark-theme",
        "preference",
        [turn("I like dark themes in every editor I use.", 5), "Install the new linter for me later."],
        "Which editor theme should I pick for VS Code?",
        [["dark"]],
    ),
    S(
        "pref-concise",
        "preference",
        [
            "Please keep your answers short, I prefer concise bullet points.",
            "The report covers three regions.",
        ],
        "Explain how DNS works.",
        [["concise", "short", "bullet"]],
    ),
    S(
        "pref-coffee",
        "preference",
        [
            turn("I always drink oat milk flat whites.", 12),
            turn("The cafe on Rua Augusta opens at eight.", 12),
        ],
        "Order my usual coffee, what should I ask for?",
        [["oat milk"], ["flat white", "flat whites"]],
    ),
    S(
        "pref-typescript",
        "preference",
        ["I prefer TypeScript over JavaScript for new projects.", "The design review went fine."],
        "Which language should the new frontend project use?",
        [["TypeScript"]],
    ),
    S(
        "pref-metric",
        "preference",
        [
            turn("I like metric units, so please always use kilometres and Celsius.", 30),
            "I ran along the river today.",
        ],
        "How far is a half marathon?",
        [["kilometres", "km", "metric"]],
    ),
    S(
        "pref-email-async",
        "preference",
        [turn("For async updates I prefer email over Slack.", 3), "The team lunch is on Thursday."],
        "How should you send me the weekly status update?",
        [["email"]],
    ),
    # --- supersession -------------------------------------------------------------------------
    S(
        "sup-billing-db",
        "supersession",
        [
            turn("We decided to use PostgreSQL for billing.", 20),
            turn("Actually, we switched from PostgreSQL to CockroachDB for billing.", 2),
        ],
        "Which database do we use for billing?",
        [["CockroachDB"]],
        ["decided to use PostgreSQL"],
    ),
    S(
        "sup-budget",
        "supersession",
        [turn("The staging budget is 5000 dollars.", 15), turn("The staging budget is now 8000 dollars.", 1)],
        "What is the staging budget?",
        [["8000"]],
        ["5000"],
    ),
    S(
        "sup-release-day",
        "supersession",
        [turn("Our release day is Tuesday.", 40), turn("Our release day is now Thursday.", 4)],
        "Which day do we release?",
        [["Thursday"]],
        ["Tuesday"],
    ),
    S(
        "sup-api-framework",
        "supersession",
        [
            turn("We decided to use Flask for the API.", 25),
            turn("We switched from Flask to FastAPI for the API.", 3),
        ],
        "Which framework does the API use?",
        [["FastAPI"]],
        ["decided to use Flask"],
    ),
    S(
        "sup-theme-reversal",
        "supersession",
        [turn("I like dark mode.", 30), turn("I no longer like dark mode; I prefer light themes now.", 2)],
        "Which theme do I like?",
        [["light"]],
        ["I like dark mode"],
    ),
    S(
        "sup-standup-time",
        "supersession",
        [turn("Standup is at 9am.", 21), turn("Standup is now at 10am.", 1)],
        "When is standup?",
        [["10am"]],
        ["9am"],
    ),
    S(
        "sup-deploy-target",
        "supersession",
        [
            turn("We deploy the web app on Heroku.", 60),
            turn("We moved the web app from Heroku to Fly.io instead.", 6),
        ],
        "Where is the web app deployed?",
        [["Fly.io", "Fly"]],
        ["deploy the web app on Heroku"],
    ),
    # --- expiry -------------------------------------------------------------------------------
    S(
        "exp-office-week",
        "expiry",
        [turn("My home office is in Lisbon.", 40), turn("This week I'm working from the Porto office.", 12)],
        "Where am I working from?",
        [["Lisbon"]],
        ["Porto office"],
    ),
    S(
        "exp-guest-wifi",
        "expiry",
        [turn("The office wifi network is called Gannet.", 30), turn("Today I'm using the guest wifi.", 3)],
        "Which wifi network should I use at the office?",
        [["Gannet"]],
        ["guest wifi"],
    ),
    S(
        "exp-staging-down",
        "expiry",
        [
            turn("Staging lives at staging.example.org.", 50),
            turn("Temporarily, the staging server is down for maintenance until Friday.", 10),
        ],
        "Can I test on staging?",
        [["staging.example.org"]],
        ["down for maintenance"],
    ),
    S(
        "exp-oncall",
        "expiry",
        [turn("I'm on the platform team.", 3), turn("This week I'm on call for the payments service.", 0)],
        "Am I on call right now?",
        [["platform"]],
        ["on call for the payments"],
        days_after=14,
    ),
    S(
        "exp-cache-off",
        "expiry",
        [turn("The build uses Bazel.", 20), turn("For today the build cache is disabled.", 4)],
        "How does the build work at the moment?",
        [["Bazel"]],
        ["cache is disabled"],
    ),
    S(
        "exp-lint-skip",
        "expiry",
        [turn("Our CI runs ruff and pytest.", 15), turn("For today only, skip the lint step.", 2)],
        "What does CI run before a merge?",
        [["ruff"], ["pytest"]],
        ["skip the lint step"],
    ),
    # --- deadline -----------------------------------------------------------------------------
    S(
        "dl-quarterly-report",
        "deadline",
        ["The quarterly report is due next Friday.", "I bought a new desk lamp."],
        "When is the quarterly report due?",
        [["Friday", "2026-03-06"]],
    ),
    S(
        "dl-passed-grant",
        "deadline",
        [
            turn("The grant application is due on 2026-02-10.", 30),
            turn("The tax return is due on 2026-04-30.", 5),
        ],
        "Which deadlines are coming up?",
        [["tax return"]],
        ["grant application"],
    ),
    S(
        "dl-invoice",
        "deadline",
        ["The Acme invoice must be paid by 2026-03-15.", "Acme's office moved to a new building."],
        "By when do we have to pay the Acme invoice?",
        [["2026-03-15", "March 15", "15 March"]],
    ),
    S(
        "dl-talk-proposal",
        "deadline",
        [
            turn("The conference talk proposal is due on April 3rd.", 7),
            "I want the talk to be about caching.",
        ],
        "When do I have to submit my talk proposal?",
        [["April 3", "2026-04-03", "April 3rd"]],
    ),
    S(
        "dl-code-freeze",
        "deadline",
        [turn("Code freeze is on 2026-03-20.", 2), turn("The mobile team needs two more reviewers.", 2)],
        "When is the code freeze?",
        [["2026-03-20", "March 20"]],
    ),
    S(
        "dl-expired-after",
        "deadline",
        [turn("The survey closes on 2026-03-05.", 0), turn("The design system uses Inter as its font.", 0)],
        "What's still open and what font do we use?",
        [["Inter"]],
        ["survey closes"],
        days_after=10,
    ),
    # --- critical -----------------------------------------------------------------------------
    S(
        "crit-no-friday-deploy",
        "critical",
        [
            "Critical: never deploy on Fridays.",
            "I prefer small pull requests.",
            "The CDN cache TTL is one hour.",
        ],
        "Can I ship the hotfix this Friday afternoon?",
        [["Fridays", "Friday"]],
    ),
    S(
        "crit-peanut-allergy",
        "critical",
        [turn("Important: I'm allergic to peanuts.", 90), turn("I love spicy food.", 20)],
        "Suggest a snack for my hike tomorrow.",
        [["peanuts", "peanut"]],
    ),
    S(
        "crit-migration-backup",
        "critical",
        [
            turn("Never run migrations against production without a backup.", 45),
            "The orders table has 40 million rows.",
        ],
        "I'm going to run the orders migration on prod now, ok?",
        [["backup"]],
    ),
    S(
        "crit-customer-data",
        "critical",
        [
            turn("Critical: never share customer data with third-party tools.", 60),
            "We started using a new analytics dashboard.",
        ],
        "Can I upload the customer list to the new AI tool to clean it?",
        [["customer data"], ["third-party", "third party"]],
    ),
    S(
        "crit-vpn-admin",
        "critical",
        [
            turn("Critical: always use the VPN when accessing the admin panel.", 35),
            "The admin panel got a new logo.",
        ],
        "I'm at the airport, how do I open the admin panel?",
        [["VPN"]],
    ),
    S(
        "crit-insulin",
        "critical",
        [
            turn("Important: my son needs insulin every day at noon.", 100),
            "We are visiting grandma next weekend.",
        ],
        "Help me plan our Saturday at grandma's.",
        [["insulin"]],
    ),
    # --- constraint ---------------------------------------------------------------------------
    S(
        "con-latency",
        "constraint",
        [turn("The API must respond within 200 ms.", 10), "We added a new endpoint for invoices."],
        "What latency target does the API have?",
        [["200 ms", "200ms"]],
    ),
    S(
        "con-no-gpl",
        "constraint",
        [turn("We can't use GPL libraries in this product.", 30), "The PDF export is slow."],
        "Can I add a GPL PDF library to speed up exports?",
        [["GPL"]],
    ),
    S(
        "con-cloud-budget",
        "constraint",
        [
            turn("The cloud bill must stay under 3000 dollars a month.", 14),
            "We need more staging environments.",
        ],
        "How much can we spend on cloud each month?",
        [["3000"]],
    ),
    S(
        "con-python39",
        "constraint",
        [turn("The app has to support Python 3.9.", 20), "I like the new match statement."],
        "Can I use match statements in the app code?",
        [["3.9"]],
    ),
    S(
        "con-eu-data",
        "constraint",
        [turn("All user data must stay in EU regions.", 50), "We are evaluating a US hosting provider."],
        "Where can we store user data?",
        [["EU"]],
    ),
    S(
        "con-offline",
        "constraint",
        [turn("The mobile app must work offline.", 9), "Designers want a live chat widget."],
        "What requirement should the mobile app architecture respect?",
        [["offline"]],
    ),
    # --- mistake ------------------------------------------------------------------------------
    S(
        "mis-version-bump",
        "mistake",
        [
            turn(
                "Last release I forgot to bump the version number before publishing, don't let me repeat that mistake.",  # noqa: E501
                30,
            ),
            "The changelog is in CHANGES.md.",
        ],
        "I'm about to publish the package, anything to watch for?",
        [["version"]],
    ),
    S(
        "mis-migration-transaction",
        "mistake",
        [
            turn("I made a mistake: I ran the migration without a transaction and corrupted the table.", 40),
            "The users table has an index on email.",
        ],
        "How should I run the next migration?",
        [["transaction"]],
    ),
    S(
        "mis-utc",
        "mistake",
        [
            turn("Lesson learned: I mixed up UTC and local time in the scheduler.", 25),
            "The scheduler runs every fifteen minutes.",
        ],
        "I'm writing a new cron job for the scheduler, any advice?",
        [["UTC"]],
    ),
    S(
        "mis-env-commit",
        "mistake",
        [turn("I accidentally committed the .env file last month.", 30), "We use pre-commit hooks."],
        "What should I check before committing config changes?",
        [[".env", "env file"]],
    ),
    S(
        "mis-float-money",
        "mistake",
        [
            turn("Mistake: I used float for money amounts; we must use Decimal.", 18),
            "The checkout page got a redesign.",
        ],
        "How should I store prices in the new checkout code?",
        [["Decimal"]],
    ),
    S(
        "mis-cache-login",
        "mistake",
        [turn("We broke prod last time by caching the login page.", 33), "The CDN now has a new purge API."],
        "Which pages should I put behind the CDN cache?",
        [["login"]],
    ),
    # --- learning goal ------------------------------------------------------------------------
    S(
        "learn-rust",
        "learning_goal",
        [turn("I want to learn Rust this year.", 20), "My laptop battery is getting weak."],
        "What should I study next?",
        [["Rust"]],
    ),
    S(
        "learn-sql-window",
        "learning_goal",
        [turn("My goal is to get better at SQL window functions.", 10), "The analytics team uses Postgres."],
        "Suggest an exercise for me this weekend.",
        [["window functions", "SQL"]],
    ),
    S(
        "learn-japanese",
        "learning_goal",
        [turn("I'm learning Japanese and I'm aiming for JLPT N4.", 45), "I'm travelling to Osaka in May."],
        "What should I practise before my trip?",
        [["Japanese"]],
    ),
    S(
        "learn-k8s-operators",
        "learning_goal",
        [turn("I'd like to learn how Kubernetes operators work.", 8), "Our cluster runs on GKE."],
        "Recommend a side project for me.",
        [["operator", "operators", "Kubernetes"]],
    ),
    S(
        "learn-public-speaking",
        "learning_goal",
        [turn("I want to improve my public speaking.", 15), "There is a meetup on Thursday."],
        "Should I volunteer for a lightning talk at the meetup?",
        [["public speaking"]],
    ),
    S(
        "learn-cello",
        "learning_goal",
        [turn("I'm trying to learn to play the cello.", 60), "I have a free evening on Wednesday."],
        "How could I use my free Wednesday evening?",
        [["cello"]],
    ),
    # --- task ---------------------------------------------------------------------------------
    S(
        "task-passport",
        "task",
        [turn("I need to renew my passport.", 6), "The garden needs watering."],
        "What's on my to-do list?",
        [["passport"]],
    ),
    S(
        "task-onboarding-docs",
        "task",
        [turn("Todo: write the onboarding docs for the API.", 4), "The API has twelve endpoints."],
        "What documentation work do I have pending?",
        [["onboarding"]],
    ),
    S(
        "task-plumber",
        "task",
        [turn("Remind me to call the plumber about the kitchen leak.", 1), "The kitchen tiles are blue."],
        "What household things do I need to do?",
        [["plumber"]],
    ),
    S(
        "task-review-pr",
        "task",
        [turn("I have to review Dana's pull request.", 2), "Dana is presenting on Friday."],
        "What do I owe Dana?",
        [["review", "pull request"]],
    ),
    S(
        "task-book-flights",
        "task",
        [
            turn("I need to book flights to Oslo for the conference.", 5),
            "The conference hotel is near the harbour.",
        ],
        "What's left to organise for the conference?",
        [["flights", "Oslo"]],
    ),
    S(
        "task-ci-migration",
        "task",
        [turn("Task: migrate the CI from Jenkins to GitHub Actions.", 12), "Jenkins has 40 jobs."],
        "What is the plan for our CI?",
        [["GitHub Actions"]],
    ),
    # --- cross_session ------------------------------------------------------------------------
    S(
        "xs-daughter-name",
        "cross_session",
        [
            turn("My daughter's name is Lina.", 20, "s1"),
            turn("Can you help me pick a birthday cake?", 5, "s2"),
        ],
        "What's my daughter's name?",
        [["Lina"]],
    ),
    S(
        "xs-router",
        "cross_session",
        [
            turn("Our wifi router is in the hallway closet.", 40, "s1"),
            turn("The internet was slow yesterday.", 1, "s3"),
        ],
        "Where is the router so I can restart it?",
        [["hallway closet", "closet"]],
    ),
    S(
        "xs-meetings",
        "cross_session",
        [turn("I prefer meetings after 10am.", 25, "s1"), turn("Dana wants to sync this week.", 0, "s4")],
        "When should I schedule the sync with Dana?",
        [["10am", "after 10"]],
    ),
    S(
        "xs-manager",
        "cross_session",
        [
            turn("My manager is called Farid.", 70, "s1"),
            turn("I have my performance review next month.", 2, "s5"),
        ],
        "Who will run my performance review?",
        [["Farid"]],
    ),
    S(
        "xs-codename",
        "cross_session",
        [
            turn("The project codename is Bluefin.", 33, "s1"),
            turn("Marketing needs a slide for the launch.", 1, "s2"),
        ],
        "What's the project codename for the slide?",
        [["Bluefin"]],
    ),
    S(
        "xs-bike",
        "cross_session",
        [
            turn("My bike is a red Brompton.", 90, "s1"),
            turn("Someone stole a bike from our street.", 0, "s6"),
        ],
        "Describe my bike for the insurance form.",
        [["Brompton"]],
    ),
    # --- project_isolation --------------------------------------------------------------------
    S(
        "proj-language",
        "project_isolation",
        [
            turn("Apollo uses Rust for the flight software.", 10, project="apollo"),
            turn("Gemini uses Go for the telemetry service.", 8, project="gemini"),
        ],
        "Which language does this project use?",
        [["Rust"]],
        ["Gemini", "Go for the telemetry"],
        q_project="apollo",
    ),
    S(
        "proj-deadline",
        "project_isolation",
        [
            turn("The Apollo demo is due on 2026-04-10.", 5, project="apollo"),
            turn("The Gemini demo is due on 2026-03-12.", 5, project="gemini"),
        ],
        "When is our demo due?",
        [["2026-04-10", "April 10"]],
        ["2026-03-12"],
        q_project="apollo",
    ),
    S(
        "proj-database",
        "project_isolation",
        [
            turn("Orion stores its data in MongoDB.", 20, project="orion"),
            turn("Vega stores its data in SQLite.", 20, project="vega"),
        ],
        "Which database does this project store data in?",
        [["SQLite"]],
        ["MongoDB"],
        q_project="vega",
    ),
    S(
        "proj-client",
        "project_isolation",
        [
            turn("The client for Atlas is Northwind Bank.", 15, project="atlas"),
            turn("The client for Helix is Contoso Health.", 15, project="helix"),
        ],
        "Who is the client of this project?",
        [["Contoso"]],
        ["Northwind"],
        q_project="helix",
    ),
    S(
        "proj-cloud",
        "project_isolation",
        [
            turn("Project Kite deploys to AWS.", 30, project="kite"),
            turn("Project Lark deploys to Google Cloud.", 30, project="lark"),
        ],
        "Which cloud do we deploy to?",
        [["AWS"]],
        ["Google Cloud"],
        q_project="kite",
    ),
    S(
        "proj-style-userwide",
        "project_isolation",
        [
            turn("Project Moss uses four-space indentation.", 10, project="moss"),
            turn("Project Fern uses two-space indentation.", 10, project="fern"),
        ],
        "How wide is the indentation in this project?",
        [["four-space", "four"]],
        ["two-space"],
        q_project="moss",
    ),
    # --- secret -------------------------------------------------------------------------------
    S(
        "sec-aws-key",
        "secret",
        [
            "My AWS key is AKIAIOSFODNN7EXAMPLE and I prefer the us-east-1 region.",
            "The bucket holds the backups.",
        ],
        "Which AWS region do I prefer?",
        [["us-east-1"]],
        ["AKIAIOSFODNN7EXAMPLE"],
    ),
    S(
        "sec-staging-password",
        "secret",
        [
            turn("The staging admin password is Zebra-Ocean-77, and staging runs on port 8443.", 3),
            "The staging logs rotate daily.",
        ],
        "Which port does staging run on?",
        [["8443"]],
        ["Zebra-Ocean-77"],
    ),
    S(
        "sec-github-token",
        "secret",
        [
            turn(
                "Here is my GitHub token ghp_1234567890abcdefghijklmnopqrstuvwxyz12 for the deploy bot, which should use the main branch.",  # noqa: E501
                7,
            ),
            "The deploy bot posts to #releases.",
        ],
        "Which branch should the deploy bot use?",
        [["main"]],
        ["ghp_1234567890abcdefghijklmnopqrstuvwxyz12"],
    ),
    S(
        "sec-card",
        "secret",
        [
            turn("Pay the domain renewal with card 4111 1111 1111 1111; I prefer yearly billing.", 12),
            "The domain is example.dev.",
        ],
        "Which billing period do I prefer for the domain?",
        [["yearly"]],
        ["4111 1111 1111 1111"],
    ),
    S(
        "sec-db-url",
        "secret",
        [
            turn(
                "The orders service connects with DATABASE_URL=postgres://app:S3cr3tPass@db.internal:5432/orders and I prefer read replicas for reports.",  # noqa: E501
                9,
            ),
            "Reports run nightly.",
        ],
        "Where should the nightly reports read from?",
        [["read replicas", "replica"]],
        ["S3cr3tPass"],
    ),
    S(
        "sec-password-plain",
        "secret",
        [
            turn("My password is hunter2xyz and I prefer passkeys where possible.", 4),
            "I use a hardware key at work.",
        ],
        "How do I like to log in?",
        [["passkeys", "passkey"]],
        ["hunter2xyz"],
    ),
    # --- compose ------------------------------------------------------------------------------
    S(
        "comp-python-friday",
        "compose",
        [turn("I prefer Python for scripting.", 20), turn("The data export is due next Friday.", 1)],
        "Plan the data export script for me.",
        [["Python"], ["Friday"]],
    ),
    S(
        "comp-constraint-pref",
        "compose",
        [turn("The service must respond within 100 ms.", 15), turn("I prefer Go for backend services.", 30)],
        "Which stack and what target for the new backend service?",
        [["Go"], ["100 ms", "100ms"]],
    ),
    S(
        "comp-critical-task",
        "compose",
        [turn("Critical: never deploy on Fridays.", 50), turn("I need to deploy the billing fix.", 0)],
        "When should I deploy the billing fix? Today is Friday.",
        [["Fridays", "Friday"], ["billing fix"]],
    ),
    S(
        "comp-supersede-deadline",
        "compose",
        [
            turn("We decided to use Vue for the dashboard.", 30),
            turn("We switched from Vue to Svelte for the dashboard.", 5),
            turn("The dashboard beta is due on 2026-03-27.", 2),
        ],
        "Remind me of the dashboard stack and its beta date.",
        [["Svelte"], ["2026-03-27", "March 27"]],
        ["decided to use Vue"],
    ),
    S(
        "comp-learning-pref",
        "compose",
        [turn("I want to learn Elixir this year.", 40), turn("I prefer hands-on projects over books.", 60)],
        "Suggest how I should start learning my new language.",
        [["Elixir"], ["hands-on", "projects"]],
    ),
    S(
        "comp-project-userwide",
        "compose",
        [
            turn("I prefer concise commit messages.", 25),
            turn("Nimbus uses conventional commits.", 10, project="nimbus"),
        ],
        "How should I write the commit message for this change?",
        [["concise"], ["conventional"]],
        q_project="nimbus",
    ),
    S(
        "comp-mistake-constraint",
        "compose",
        [
            turn("Mistake: I once exposed the admin API without auth.", 70),
            turn("Every endpoint must require authentication.", 20),
        ],
        "I'm adding a quick debug endpoint, what must I keep in mind?",
        [["auth", "authentication"]],
    ),
]

if __name__ == "__main__":
    assert len({s["id"] for s in SCENARIOS}) == len(SCENARIOS), "duplicate ids"
    OUT.write_text(json.dumps(SCENARIOS, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {len(SCENARIOS)} scenarios to {OUT}")
