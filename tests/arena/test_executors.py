"""The same tournament gives the same games in this process, in a process pool and on Dask."""

from __future__ import annotations

import json
import sys

import pytest

from durak_arena.referee import BotSpec
from durak_arena.tournament import (
    DaskExecutor,
    ProcessExecutor,
    SerialExecutor,
    derive_seed,
    run_tournament,
    schedule,
    total_games,
)
from durak_core import Rules

from .conftest import FIXTURES, ROOT


def _bots(spec):
    return [spec("builtin:random"), spec("builtin:greedy"),
            spec(f"py:{FIXTURES / 'randombot.py'}:Rb")]


@pytest.fixture(scope="module")
def serial():
    """The reference: the tournament played in this process."""
    return _run(_parse, SerialExecutor())


def _parse(text):
    return BotSpec.parse(text, cwd=str(ROOT))


def _summary(results):
    return sorted((r.game, tuple(r.bots), tuple(r.log)) for r in results.records)


def _run(spec, executor, tasks_per_group=2):
    try:
        return run_tournament(_bots(spec), games=4, seed=9, rules=Rules(), move_time=10.0,
                              executor=executor, tasks_per_group=tasks_per_group)
    finally:
        executor.close()


def test_schedule_plays_each_deal_with_seats_swapped(spec):
    tasks = schedule(_bots(spec), games=4, seed=1, rules=Rules(), move_time=1.0,
                     tasks_per_group=2)
    assert len(tasks) == 6  # 3 pairs, each cut in 2 tasks
    games = [g for t in tasks for g in t.games]
    assert len(games) == total_games(3, 4, 2) == 12
    by_pair: dict = {}
    for t in tasks:
        for g in t.games:
            by_pair.setdefault(tuple(s.text for s in t.bots), []).append(g)
    for pair_games in by_pair.values():
        deals = {}
        for g in pair_games:
            deals.setdefault(g.deal, []).append(g.order)
        assert all(sorted(orders) == [(0, 1), (1, 0)] for orders in deals.values())
        # Every pair plays the same deals.
        assert sorted({g.deal_seed for g in pair_games}) == sorted(
            derive_seed(1, "deal", d) for d in range(2))


def test_a_process_pool_plays_the_same_games_as_one_process(spec, serial):
    pooled = _run(spec, ProcessExecutor(2))
    assert len(serial.records) == 12
    assert _summary(pooled) == _summary(serial)
    assert _rows_equal(serial, pooled)


def _rows_equal(a, b):
    """Equal tables apart from think time, which depends on the machine."""
    strip = [{k: v for k, v in r.items() if k != "ms_per_decision"} for r in a.bot_rows()]
    other = [{k: v for k, v in r.items() if k != "ms_per_decision"} for r in b.bot_rows()]
    return strip == other


def test_a_local_dask_cluster_plays_the_same_games(spec, serial):
    pytest.importorskip("distributed", reason="the dask extra is not installed")
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        on_dask = _run(spec, DaskExecutor(client=client))
    assert _summary(on_dask) == _summary(serial)
    assert _rows_equal(serial, on_dask)


def test_without_the_dask_extra_the_error_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed now fails
    with pytest.raises(RuntimeError, match=r"pip install 'durak\[dask\]'"):
        DaskExecutor("tcp://127.0.0.1:1")


def test_the_command_line_runs_on_a_dask_scheduler(tmp_path, capsys):
    pytest.importorskip("distributed", reason="the dask extra is not installed")
    from distributed import LocalCluster

    from durak_arena.cli import main

    out = tmp_path / "r.json"
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                      dashboard_address=None) as cluster:
        code = main(["builtin:random", "builtin:greedy", "--games", "4", "--seed", "2",
                     "--dask", cluster.scheduler_address, "--json", str(out), "--quiet"])
    assert code == 0
    assert "builtin:greedy" in capsys.readouterr().out
    (pair,) = json.loads(out.read_text(encoding="utf-8"))["pairs"]
    assert pair["games"] == 4 and pair["forfeits"] == 0
