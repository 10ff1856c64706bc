"""Bots as subprocesses over stdin/stdout, tournaments between them, and ratings.

Modules:

* :mod:`~durak_arena.protocol`: the line-based JSON protocol (docs/bot-protocol.md).
* :mod:`~durak_arena.process`: one bot program, asked with a deadline.
* :mod:`~durak_arena.botrunner`: runs a :class:`durak_core.bots.Bot` as such a program.
* :mod:`~durak_arena.referee`: bot specs, seats, and the referee of one game.
* :mod:`~durak_arena.tournament`: round robin with duplicate deals, executors, tallies.
* :mod:`~durak_arena.stats`: Wilson intervals and Bradley-Terry ratings.
* :mod:`~durak_arena.cli`: the ``durak-arena`` command.

The arena imports durak_core and nothing else of the project.
"""
