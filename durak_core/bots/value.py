"""The learnt value model of the searches' short rollouts (``cutoff=N``), read from the
package.

``value_model.json`` beside this module holds the weights of a logistic model over
:func:`durak_core.playout.value_features` (the cards of both hands, counted by group,
the talon, who attacks), trained by ``scripts/train_value.py`` to predict what a greedy
playout from a position between bouts gives each seat.  It is a few hundred bytes of
JSON, read once, evaluated by the compiled engine in plain arithmetic, so it runs
wherever the engine runs, Pyodide included; :func:`evaluate` scores many positions at
once with numpy when numpy is there (for studies and tests, not for the search).

>>> from durak_core import Game, Rules
>>> from durak_core.playout import value_of
>>> game = Game.new(Rules(), seed=4)
>>> 0.0 < value_of(game, 0, value_weights()) < 1.0
True
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from ..playout import VALUE_FEATURES

#: The model file shipped with the package.
MODEL_FILE = Path(__file__).resolve().parent / "value_model.json"


def load_model(path: Path = MODEL_FILE) -> dict[str, Any]:
    """The model file as a dict, checked: its features must be the engine's, in order,
    with one finite weight each (a model trained on other features would score
    nonsense, so it is refused with a sentence saying why)."""
    try:
        model = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"the value model {path.name} cannot be read: {exc}") from exc
    features = model.get("features")
    weights = model.get("weights")
    if features != list(VALUE_FEATURES):
        raise ValueError(f"the value model {path.name} was trained on other features than "
                         "durak_core.playout.VALUE_FEATURES; run scripts/train_value.py")
    if (not isinstance(weights, list) or len(weights) != len(features)
            or not all(isinstance(w, (int, float)) and math.isfinite(w) for w in weights)):
        raise ValueError(f"the value model {path.name} needs one finite weight a feature")
    return dict(model)


@cache
def value_weights() -> list[float]:
    """The shipped model's weights, in :data:`durak_core.playout.VALUE_FEATURES` order
    (read once; callers must not change the list)."""
    return [float(w) for w in load_model()["weights"]]


def evaluate(
    rows: Sequence[Sequence[float]], weights: Sequence[float] | None = None
) -> list[float]:
    """The model's chance of being safe for each row of features (numpy when it is
    installed, else plain Python; the same numbers)."""
    w = list(value_weights() if weights is None else weights)
    try:
        import numpy as np
    except ImportError:  # the search itself never needs numpy
        return [1.0 / (1.0 + math.exp(-sum(a * b for a, b in zip(w, r, strict=True))))
                for r in rows]
    x = np.asarray(rows, dtype=float).reshape(len(rows), len(w))
    return [float(p) for p in 1.0 / (1.0 + np.exp(-(x @ np.asarray(w))))]
