"""Whole search trees, pinned: a change that should only make the search faster must
leave every node of every tree as it was.

The recorded games of ``ismcts-v1`` and ``ismcts-v2`` pin the moves at budgets of
12 to 30 iterations; a search can change below its root without changing the move.
Here a digest of each tree (every node's action, visits, summed reward, safe visits
and availability count, in the order the nodes were made) is pinned for a few hundred
iterations, over the options whose code paths differ, at two and three seats and in
perevodnoy.  The fixture tests/bots/data/search_trees.json was recorded before issue
36's cheaper iteration (tape-read generators, lookups by identity, the compiled
weighted deal) and that work left it unchanged.  To record it again (only when a
change of the search's numbers is meant): ``python -m tests.bots.test_search_trees``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from durak_core import Action, Rules
from durak_core.bots import greedy_decisions, make_bot
from durak_core.tree import Node

TREES = Path(__file__).parent / "data" / "search_trees.json"
ITERATIONS = 200

#: Tables: a name and the rules (one seeded greedy game each gives the positions).
TABLES: dict[str, Rules] = {
    "2p": Rules(),
    "3p": Rules(players=3),
    "perevodnoy": Rules(variant="perevodnoy"),
}
#: The bots searched, each a spec without its budget.
SPECS = [
    "ismcts", "ismcts-v1", "ismcts-v2", "ismcts?paired=0", "ismcts?reply_view=0.5",
    "ismcts?every_seat=1", "ismcts?particles=100", "ismcts?widen=0.5&width=8",
]


def positions(rules: Rules) -> list[tuple[dict[str, Any], list[Action]]]:
    """Every fifth decision with a choice of one seeded game of greedy bots."""
    return greedy_decisions(rules, [1], 5)


def digest(node: Node, h: Any) -> None:
    for action, child in node.children.items():
        h.update(f"{action}|{child.visits}|{child.reward!r}|{child.safe}|{child.avail}(".encode())
        digest(child, h)
        h.update(b")")


def trees(table: str, spec: str) -> str:
    """The digest of the moves and trees of ``spec`` at every position of ``table``."""
    rules = TABLES[table]
    joiner = "&" if "?" in spec else "?"
    h = hashlib.sha256()
    for seed, (observation, legal) in enumerate(positions(rules)):
        bot = make_bot(f"{spec}{joiner}iterations={ITERATIONS}", seed=seed)
        bot.start(int(observation["seat"]), rules)
        h.update(f"{bot.choose(observation, legal)}|{getattr(bot, 'history', [])}".encode())
        root = getattr(bot, "last_root", None)
        if root is not None:
            digest(root, h)
    return h.hexdigest()


@pytest.mark.parametrize("table", TABLES)
def test_every_search_tree_is_the_one_recorded(table: str) -> None:
    recorded = json.loads(TREES.read_text(encoding="utf-8"))["trees"]
    for spec in SPECS:
        assert trees(table, spec) == recorded[f"{table} {spec}"], (table, spec)


def record() -> dict[str, Any]:
    return {
        "iterations": ITERATIONS,
        "trees": {f"{table} {spec}": trees(table, spec) for table in TABLES for spec in SPECS},
    }


if __name__ == "__main__":
    TREES.write_text(json.dumps(record(), indent=1) + "\n", encoding="utf-8")
    sys.exit(0)
