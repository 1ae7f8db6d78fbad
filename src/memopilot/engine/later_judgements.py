"""The background worker that applies the learned judgements writes left for later.

A write's most expensive step is e5's reading of the (message, earlier memory) pairs the learned
judgement's static screening finds plausible: about 20 ms a text on two cores, more than the rest
of the write. So, with ``MEMOPILOT_JUDGE_LATER`` on (the default; ``MemoPilot.open(judge_later=)``),
a write commits the episode, the typed memories and the rules' changes at once and hands the
judgement here
(:class:`~memopilot.write.planner.LaterJudgement`); this worker applies it a few tens of
milliseconds later, to the memories it names as they are then.

Nothing reads around it: every engine operation on a user first waits until that user's queued
judgements are applied (:meth:`LaterJudgements.settle`), so the next message, question, list or
edit sees exactly what a write that judged at once would have left (the scenario and extraction
suites measure the same either way). What only the caller of the write sees differently: its
answer lists the changes made at once, and the trace says a judgement followed
(``judged_later``). Closing the engine applies what is queued within ``drain_seconds``.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections import Counter, deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:  # the write path loads on first use (a command that only reads never loads it)
    from ..write.planner import LaterJudgement

_log = logging.getLogger(__name__)

__all__ = ["LaterJudgements", "settled"]

Apply = Callable[[str, "LaterJudgement"], None]
_Method = TypeVar("_Method", bound=Callable[..., Any])


def settled(method: _Method) -> _Method:
    """Run an engine operation once the queued judgements of its ``user_id`` (given by keyword;
    else everyone's) are applied, so it never sees a write half done."""

    @functools.wraps(method)
    def after_judgements(self: Any, *args: Any, **kwargs: Any) -> Any:
        self.later_judgements.settle(kwargs.get("user_id"))
        return method(self, *args, **kwargs)

    return after_judgements  # type: ignore[return-value]


class LaterJudgements:
    """A queue of (user, judgement), applied in order by one daemon thread."""

    def __init__(self, apply: Apply) -> None:
        self._apply = apply
        self._queue: deque[tuple[str, LaterJudgement]] = deque()
        self._waiting: Counter[str] = Counter()  # queued or being applied, per user
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None
        self._closed = False

    def submit(self, user_id: str, judgement: LaterJudgement) -> None:
        with self._changed:
            if self._closed:
                raise RuntimeError("the engine is closed")
            self._queue.append((user_id, judgement))
            self._waiting[user_id] += 1
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="memopilot-judgements", daemon=True)
                self._thread.start()
            self._changed.notify_all()

    def pending(self, user_id: str | None = None) -> int:
        """Judgements queued or being applied: the user's, or everyone's."""
        with self._changed:
            return self._count(user_id)

    def settle(self, user_id: str | None = None, timeout: float | None = None) -> bool:
        """Wait until the user's (None: everyone's) queued judgements are applied; False when
        ``timeout`` passed first. Called by the worker's own thread, it returns at once."""
        if not self._waiting or threading.current_thread() is self._thread:
            return True  # nothing queued (every read asks: no lock then)
        with self._changed:
            return self._changed.wait_for(lambda: self._count(user_id) == 0, timeout)

    def _count(self, user_id: str | None) -> int:
        return self._waiting[user_id] if user_id is not None else self._waiting.total()

    def close(self, drain_seconds: float) -> None:
        """Apply what is queued within ``drain_seconds``, then stop; what is left is dropped (the
        messages' own memories are stored: only a supersession the rules did not read is lost)."""
        self.settle(timeout=drain_seconds)
        with self._changed:
            self._closed = True
            dropped = len(self._queue)
            self._queue.clear()
            self._waiting.clear()
            self._changed.notify_all()
        if dropped:
            _log.warning("closing: %d learned judgements were not applied in time", dropped)

    def _run(self) -> None:
        while True:
            with self._changed:
                self._changed.wait_for(lambda: bool(self._queue) or self._closed)
                if self._closed:
                    return
                user_id, judgement = self._queue[0]
            try:
                self._apply(user_id, judgement)
            except Exception:  # a failed judgement must not stop the ones behind it
                _log.exception("a learned judgement could not be applied")
            finally:
                with self._changed:
                    if self._queue and self._queue[0][1] is judgement:
                        self._queue.popleft()
                        self._waiting[user_id] -= 1
                        if self._waiting[user_id] <= 0:
                            del self._waiting[user_id]
                    self._changed.notify_all()
