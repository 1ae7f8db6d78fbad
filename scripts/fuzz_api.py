"""Fuzz the REST API against its own OpenAPI schema with schemathesis (issue 8).

Every operation gets schema-valid requests (positive mode) and schema-violating ones (negative
mode), sent in-process to the real app over a real database. Each response must pass the gate:
no 5xx, a documented status code, the documented content type, a body and headers matching the
schema. ``tests/test_api_fuzz.py`` runs the CI profile; the full profile is

    python scripts/fuzz_api.py --positive 200 --negative 50 [--db URL] [--json]

It prints the number of requests, the status codes seen, and every distinct failure.
``/api/eval/*`` is left out: one call runs a whole evaluation suite.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import errors as hypothesis_errors
from hypothesis import seed as fixed_seed
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

GATE = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
]
SKIPPED_PATHS = ("/api/eval",)


@dataclass
class FuzzReport:
    requests: int = 0
    statuses: collections.Counter[int] = field(default_factory=collections.Counter)
    failures: dict[str, str] = field(default_factory=dict)  # "mode operation: first line" -> detail
    operations: int = 0
    seconds: float = 0.0

    @property
    def server_errors(self) -> int:
        return sum(n for status, n in self.statuses.items() if status >= 500)

    def to_dict(self) -> dict[str, Any]:
        return {
            "requests": self.requests,
            "operations": self.operations,
            "server_errors": self.server_errors,
            "schema_failures": len(self.failures),
            "statuses": {str(k): v for k, v in sorted(self.statuses.items())},
            "failures": self.failures,
            "seconds": round(self.seconds, 1),
        }


def fuzz(app: Any, *, positive: int, negative: int, seed: int | None = None) -> FuzzReport:
    """Run ``positive`` and ``negative`` generated examples per operation against ``app`` (ASGI)."""
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    report = FuzzReport()
    started = time.perf_counter()
    mode_names = schemathesis.GenerationMode
    for mode, examples in ((mode_names.POSITIVE, positive), (mode_names.NEGATIVE, negative)):
        if examples <= 0:
            continue
        for result in schema.get_all_operations():
            operation = result.ok()
            if operation.path.startswith(SKIPPED_PATHS):
                continue
            report.operations += mode is mode_names.POSITIVE
            _fuzz_operation(operation, mode, examples, seed, report)
    report.seconds = time.perf_counter() - started
    return report


def _fuzz_operation(operation: Any, mode: Any, examples: int, seed: int | None, report: FuzzReport) -> None:
    def record(title: str, detail: str) -> None:
        report.failures.setdefault(f"{mode.value} {operation.label}: {title}", detail[:2000])

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=seed is None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    def check(case: Any) -> None:
        report.requests += 1
        try:
            response = case.call()
        except Exception as exc:  # the in-process transport re-raises what the app did not handle
            report.statuses[500] += 1
            record("unhandled exception", f"{exc!r}\n{case.as_curl_command()}")
            return
        report.statuses[response.status_code] += 1
        try:
            case.validate_response(response, checks=GATE)
        except BaseException as exc:  # schemathesis raises a FailureGroup (an exception group)
            if isinstance(exc, KeyboardInterrupt):
                raise
            record(str(exc).strip().splitlines()[0][:120], str(exc))

    if seed is not None:
        check = fixed_seed(seed)(check)
    # Unsatisfiable: no schema-violating request exists for this operation (e.g. no parameters at all)
    with contextlib.suppress(hypothesis_errors.Unsatisfiable):
        check()


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--db", help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--positive", type=int, default=200, help="schema-valid examples per operation")
    parser.add_argument("--negative", type=int, default=50, help="schema-violating examples per operation")
    parser.add_argument("--seed", type=int, help="random seed (default: derandomized, repeatable)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args()

    from memopilot import MemoPilot, Settings
    from memopilot.server import create_app

    with tempfile.TemporaryDirectory() as scratch:
        url = args.db or f"sqlite:///{Path(scratch) / 'fuzz.db'}"
        mp = MemoPilot.open(settings=Settings.load(database_url=url, rate_limit_per_minute=0), llm=None)
        try:
            report = fuzz(create_app(mp=mp), positive=args.positive, negative=args.negative, seed=args.seed)
        finally:
            mp.close()
    if args.json:
        print(json.dumps(report.to_dict(), indent=2))
    else:
        print(
            f"{report.requests} requests over {report.operations} operations in {report.seconds:.1f} s: "
            f"{report.server_errors} server errors, {len(report.failures)} schema failures"
        )
        print("statuses:", dict(sorted(report.statuses.items())))
        for title, detail in report.failures.items():
            print(f"\n== {title}\n{detail}")
    return 0 if not report.failures and not report.server_errors else 1


if __name__ == "__main__":
    sys.exit(main())
