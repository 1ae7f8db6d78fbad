"""Chinese retrieval: is the right memory in the context for each question, at small budgets?

    python scripts/measure_cjk_retrieval.py [--file eval/chinese/memories_questions.json]
        [--budgets 150,500] [--through add|remember] [--json]

The file holds one user's memories (Chinese sentences, about a quarter of them near-misses of
another on the same subject) and questions phrased differently from the memory that answers each.
Every memory is stored verbatim for one user in a scratch SQLite database (``add``, the type the
rule classifier gives; or ``--through remember``: each memory a chat turn of one session, kept as
its episode beside the typed memories the write path takes from it), then for each question and
budget the context is built with the defaults: a hit is the answering memory's text inside the
context. Also reported: the share of questions whose answering memory (or, through remember, a
typed memory taken from it) ranks first in ``search``. Token counts are MemoPilot's (one per CJK
character), so a 150-token context holds about 150 Chinese characters with its header.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_FILE = ROOT / "eval" / "chinese" / "memories_questions.json"


def measure(document: dict[str, Any], budgets: list[int], through: str = "add") -> dict[str, Any]:
    from memopilot import MemoPilot, Settings

    with tempfile.TemporaryDirectory(prefix="memopilot-cjk-") as folder:
        settings = Settings.load(database_url=f"sqlite:///{Path(folder) / 'cjk.db'}")
        with MemoPilot.open(settings=settings, llm=None) as mp:
            texts = {m["id"]: m["text"] for m in document["memories"]}
            for mid, text in texts.items():
                if through == "remember":
                    mp.remember(text, user_id="cjk", session_id="cjk-session", message_id=mid)
                else:
                    mp.add(text, user_id="cjk", message_id=mid)
            episodes = mp.list(user_id="cjk", types=["episode"], limit=1000).items
            message_of = {m.id: m.message_id for m in episodes}

            def said_in(memory: Any) -> str | None:
                """The message a memory was added as, or (typed, from a turn) the turn it cites."""
                cited = [message_of[s] for s in memory.source_ids if s in message_of]
                return memory.message_id or (cited[0] if cited else None)

            questions = document["questions"]
            hits = dict.fromkeys(budgets, 0)
            first = 0
            misses: list[dict[str, Any]] = []
            for q in questions:
                wanted = q["answer_memory"]
                results = mp.search(q["question"], user_id="cjk", k=5)
                first += bool(results) and said_in(results[0].memory) == wanted
                for budget in budgets:
                    context = mp.build_context(q["question"], user_id="cjk", budget_tokens=budget)
                    if texts[wanted] in context.text:
                        hits[budget] += 1
                    elif budget == budgets[0]:
                        top = results[0].memory.content if results else None
                        misses.append({"question": q["question"], "wanted": texts[wanted], "top": top})
    count = len(questions)
    return {
        "memories": len(texts),
        "questions": count,
        "in_context": {str(b): round(hits[b] / count, 3) for b in budgets},
        "search_top1": round(first / count, 3),
        "misses_at_smallest_budget": misses,
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--file", type=Path, default=DEFAULT_FILE)
    parser.add_argument("--budgets", default="150,500")
    parser.add_argument("--through", choices=("add", "remember"), default="add")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    document = json.loads(args.file.read_text(encoding="utf-8"))
    report = measure(document, [int(b) for b in args.budgets.split(",")], args.through)
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
    else:
        shares = ", ".join(f"{b} tokens: {v:.1%}" for b, v in report["in_context"].items())
        print(
            f"{report['questions']} questions over {report['memories']} memories: right memory in the "
            f"context at {shares}; first in search {report['search_top1']:.1%}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
