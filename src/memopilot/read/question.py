"""A question's vector that arrives in two steps (``Embedder.embed_question``).

The default model's question vector is the static model's part (a fraction of a millisecond)
and e5's part (about 5-8 ms on e5's own thread). The index picks its candidates by the fast
part alone, so a read hands it the fast part at once and waits for the whole vector only when
it scores the few candidates it picked: e5 computes while the read sweeps, loads and scans.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

__all__ = ["QuestionVector", "whole_vector"]


@dataclass(slots=True)
class QuestionVector:
    fast: np.ndarray  # the leading ``fast_dims`` part, ready now
    finish: Callable[[], np.ndarray]  # blocks until the whole vector is there, then returns it
    _whole: np.ndarray | None = field(default=None, repr=False)

    def whole(self) -> np.ndarray:
        if self._whole is None:
            self._whole = self.finish()
        return self._whole


def whole_vector(vector: np.ndarray | QuestionVector) -> np.ndarray:
    """The whole vector, waiting for it if it is still being computed."""
    return vector.whole() if isinstance(vector, QuestionVector) else vector
