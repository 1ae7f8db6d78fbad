"""API fuzzing: schemathesis against the app's own OpenAPI schema (the CI profile of scripts/fuzz_api.py).

At least 1,000 generated requests per run, schema-valid and schema-violating, over the real app and
database: no 5xx, and every response has a documented status, content type, body and headers.
"""

from __future__ import annotations

from memopilot import MemoPilot
from memopilot.server import create_app

from .reliability_helpers import scripts_on_path, unlimited

with scripts_on_path():
    from fuzz_api import fuzz

POSITIVE_EXAMPLES = 64  # per operation; some operations have fewer distinct inputs
NEGATIVE_EXAMPLES = 8


def test_generated_requests_get_no_5xx_and_match_the_schema(mp: MemoPilot) -> None:
    report = fuzz(create_app(mp=unlimited(mp)), positive=POSITIVE_EXAMPLES, negative=NEGATIVE_EXAMPLES)
    print(f"\nschemathesis: {report.to_dict() | {'failures': list(report.failures)}}")
    assert report.requests >= 1000
    assert report.server_errors == 0
    assert not report.failures, "\n\n".join(f"{k}\n{v}" for k, v in report.failures.items())
    assert report.statuses[422] > 0 and report.statuses[200] > 0  # both kinds of request were made
