"""Synthetic but realistic memories for benchmarks: typed sentences from templates and real vocabulary.

Deterministic for a seed. Types follow a plausible mix (many episodes and preferences,
few critical facts), ages spread over a year, projects over ten names plus user-wide
memories, and lengths from one short clause to a few sentences.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta

__all__ = ["SyntheticMemory", "generate_memories", "generate_questions"]

TOOLS = (
    "PostgreSQL",
    "Redis",
    "Kafka",
    "Terraform",
    "Kubernetes",
    "Docker",
    "React",
    "Vue",
    "Svelte",
    "FastAPI",
    "Django",
    "Flask",
    "pytest",
    "GitHub Actions",
    "Jenkins",
    "Grafana",
    "Prometheus",
    "Elasticsearch",
    "SQLite",
    "DuckDB",
    "Airflow",
    "dbt",
    "Snowflake",
    "BigQuery",
    "Rust",
    "Go",
    "TypeScript",
    "Python",
    "Java",
    "Kotlin",
    "Swift",
    "Tailwind",
    "Next.js",
    "Celery",
    "RabbitMQ",
)
COMPONENTS = (
    "billing service",
    "search API",
    "mobile app",
    "data pipeline",
    "admin dashboard",
    "auth service",
    "notification worker",
    "reporting job",
    "checkout flow",
    "onboarding wizard",
    "recommendation engine",
    "invoice exporter",
    "metrics backend",
    "customer portal",
)
PEOPLE = ("Dana", "Omar", "Priya", "Kenji", "Lucia", "Mateo", "Aisha", "Tom", "Ines", "Wei", "Sofia", "Noah")
CITIES = ("Berlin", "Lisbon", "Toronto", "Osaka", "Nairobi", "Austin", "Madrid", "Seoul", "Dublin", "Oslo")
TOPICS = (
    "ownership in Rust",
    "SQL window functions",
    "Kubernetes networking",
    "type theory",
    "French grammar",
    "distributed tracing",
    "statistics",
    "guitar chords",
    "system design",
    "async Python",
)
ADJECTIVES = ("slow", "flaky", "fast", "stable", "broken", "expensive", "confusing", "clean", "late", "solid")
DELIVERABLES = (
    "quarterly report",
    "design review",
    "release candidate",
    "migration plan",
    "security audit",
    "API documentation",
    "customer demo",
    "budget proposal",
    "load test",
    "incident write-up",
)
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
PROJECTS = tuple(f"project-{i}" for i in range(10))

TEMPLATES: dict[str, tuple[str, ...]] = {
    "episode": (
        "{person} said the {component} was {adj} again after the last deploy.",
        "We talked about moving the {component} to {tool}; {person} was not convinced.",
        "Yesterday {person} and I debugged the {component} until late, the root cause was a {tool} timeout.",
        "I spent the morning in {city} reading about {topic}.",
        "The standup ran long because the {component} alerts kept firing.",
    ),
    "preference": (
        "I prefer {tool} over {tool2} for the {component}.",
        "Please keep answers short and show code first.",
        "I like detailed explanations when we discuss {topic}.",
        "I prefer tabs over spaces and 100-character lines.",
        "I dislike long meetings; send {person} a written summary instead.",
    ),
    "decision": (
        "We decided to use {tool} for the {component}.",
        "Let's go with {tool} instead of {tool2} for caching in the {component}.",
        "The team agreed to freeze the {component} API until the {deliverable}.",
    ),
    "constraint": (
        "The {component} must never log personal data.",
        "Deploys to the {component} are not allowed on {weekday}s.",
        "The {component} must respond within {n} milliseconds.",
    ),
    "deadline": (
        "The {deliverable} for the {component} is due on {weekday}.",
        "{person} needs the {deliverable} by the end of the month.",
    ),
    "task": (
        "I need to rotate the credentials of the {component}.",
        "Remind me to review {person}'s pull request on the {component}.",
    ),
    "project": (
        "The {component} runs on {tool} and is owned by {person}.",
        "Our stack is {tool}, {tool2} and a small {tool3} cluster.",
    ),
    "mistake": ("Last time the {component} migration dropped a table; always take a backup first.",),
    "learning_goal": ("I want to learn {topic} over the next months.",),
    "temporary": ("For today only, I am working from {city}.",),
    "critical": ("Never run destructive migrations on the {component} without a backup.",),
}
# Relative frequency of each type in a user's memory (episodes dominate real histories).
WEIGHTS = {
    "episode": 40,
    "preference": 12,
    "decision": 10,
    "project": 8,
    "task": 8,
    "constraint": 6,
    "deadline": 5,
    "mistake": 3,
    "learning_goal": 3,
    "temporary": 3,
    "critical": 2,
}
QUESTIONS = (
    "Which database do we use for the {component}?",
    "What did {person} say about the {component}?",
    "How should I format code?",
    "When is the {deliverable} due?",
    "What am I learning at the moment?",
    "What must I never do with the {component}?",
    "Which tool did we pick for the {component}?",
    "Where am I working today?",
)


@dataclass(frozen=True, slots=True)
class SyntheticMemory:
    content: str
    type: str
    project_id: str | None
    created_at: datetime


def _fill(template: str, rng: random.Random) -> str:
    tools = rng.sample(TOOLS, 3)
    return template.format(
        tool=tools[0],
        tool2=tools[1],
        tool3=tools[2],
        component=rng.choice(COMPONENTS),
        person=rng.choice(PEOPLE),
        city=rng.choice(CITIES),
        topic=rng.choice(TOPICS),
        adj=rng.choice(ADJECTIVES),
        deliverable=rng.choice(DELIVERABLES),
        weekday=rng.choice(WEEKDAYS),
        n=rng.choice((50, 100, 200, 500)),
    )


def generate_memories(count: int, *, seed: int, now: datetime) -> Iterator[SyntheticMemory]:
    rng = random.Random(seed)
    types = list(WEIGHTS)
    weights = [WEIGHTS[t] for t in types]
    for _ in range(count):
        memory_type = rng.choices(types, weights)[0]
        sentences = 1 if memory_type != "episode" else rng.choice((1, 1, 2, 3))
        content = " ".join(_fill(rng.choice(TEMPLATES[memory_type]), rng) for _ in range(sentences))
        project = (
            None
            if memory_type in ("preference", "learning_goal") or rng.random() < 0.15
            else rng.choice(PROJECTS)
        )
        age = timedelta(days=rng.uniform(0, 365), seconds=rng.uniform(0, 86_400))
        yield SyntheticMemory(content, memory_type, project, now - age)


def generate_questions(count: int, *, seed: int) -> list[tuple[str, str]]:
    """(question, project) pairs."""
    rng = random.Random(seed + 1)
    return [(_fill(rng.choice(QUESTIONS), rng), rng.choice(PROJECTS)) for _ in range(count)]
