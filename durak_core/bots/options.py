"""Bot options written as text (``ismcts?ms=100&c=0.5``), read and checked against the bot.

A spec is typed by a person, so a wrong option must come back as one sentence naming
the option and what it wants (``option ms of bot 'ismcts' wants a number, not 'abc'``),
not as whatever the constructor happens to raise when it first uses the value.  The
wanted types are read from the constructor's own annotations, so a new bot or a new
option is checked without a table to keep up to date.

>>> def factory(seed: int | None = None, ms: float = 100.0) -> None: ...
>>> check_options(factory, {"ms": "abc"}, "ismcts")
Traceback (most recent call last):
...
ValueError: option ms of bot 'ismcts' wants a number, not 'abc'
"""

from __future__ import annotations

import dataclasses
import inspect
import math
import types
import typing
from collections.abc import Callable, Iterable
from typing import Any

#: Names of the types an option written in text can have, for the messages.
_WANTS = {float: "a number", int: "a whole number", str: "text", bool: "0 or 1"}


def parse_options(words: Iterable[str], bot: str = "") -> dict[str, Any]:
    """``key=value`` words as keyword arguments, numbers converted.

    >>> parse_options(["ms=100", "c=0.5", "name=x"])
    {'ms': 100, 'c': 0.5, 'name': 'x'}
    """
    options: dict[str, Any] = {}
    for word in words:
        key, eq, value = word.partition("=")
        if not key or not eq:
            for_bot = f" for bot {bot!r}" if bot else ""
            raise ValueError(f"bad option {word!r}{for_bot}: write key=value")
        options[key] = _number(value)
    return options


def _number(text: str) -> Any:
    """An int or a finite float when the text is one, else the text itself."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        value = float(text)
    except ValueError:
        return text
    return value if math.isfinite(value) else text


def check_options(factory: Callable[..., Any], options: dict[str, Any], bot: str) -> None:
    """Refuse an option the bot does not take, or a value of the wrong type, in one sentence.

    ``seed`` is never an option: whoever runs the bot seeds it for each game.  A bot
    class with a ``config_class`` (a dataclass) takes that class's fields as options.
    Annotations that cannot be read, or types text cannot express, are left for the
    constructor to judge, except a function (a clock, a policy), which text cannot give.
    """
    if "seed" in options:
        raise ValueError(f"bot {bot!r}: seed is not an option; each game seeds the bot itself")
    config_class = getattr(factory, "config_class", None)
    fields: list[str] = []
    if dataclasses.is_dataclass(config_class) and isinstance(config_class, type):
        # Its keyword options are the config's fields (a subclass may add its own).
        fields = [f.name for f in dataclasses.fields(config_class)]
        _check_fields(config_class, {k: v for k, v in options.items() if k in fields}, bot)
        options = {k: v for k, v in options.items() if k not in fields}
        if not options:
            return
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return
    takes_any = not fields and any(p.kind is p.VAR_KEYWORD for p in params.values())
    named = fields + [
        n for n, p in params.items()
        if n != "seed" and p.kind in _NAMED and not (fields and n == "config")
    ]
    try:
        # A class's hints are its constructor's (getattr: mypy rightly distrusts
        # __init__ read from an instance; here it is read from the class itself).
        target = getattr(factory, "__init__") if isinstance(factory, type) else factory  # noqa: B009
        hints = typing.get_type_hints(target)
    except Exception:  # annotations naming what this module cannot import
        hints = {}
    for key, value in options.items():
        if key not in params or params[key].kind not in _NAMED or key not in named:
            if takes_any:
                continue
            choices = ", ".join(named) if named else "none"
            raise ValueError(f"bot {bot!r} has no option {key!r} (its options: {choices})")
        _check_value(key, value, hints.get(key), bot)


_NAMED = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)


def _check_fields(config_class: type, options: dict[str, Any], bot: str) -> None:
    """The values of ``options``, each a field of the dataclass ``config_class`` (a bot's
    ``config_class``, e.g. :class:`durak_core.bots.IsmctsConfig`), checked by its hints."""
    try:
        hints = typing.get_type_hints(config_class)
    except Exception:  # annotations naming what this module cannot import
        hints = {}
    for key, value in options.items():
        _check_value(key, value, hints.get(key), bot)


def _check_value(key: str, value: Any, hint: Any, bot: str) -> None:
    """Refuse ``value`` when it is not of a type ``hint`` allows (text's types only)."""
    if hint is None:
        return
    wanted = _wanted(hint)
    if wanted is None:
        raise ValueError(f"option {key} of bot {bot!r} cannot be given in a spec")
    if wanted and not any(_fits(value, kind) for kind in wanted):
        what = " or ".join(_WANTS[kind] for kind in wanted)
        raise ValueError(f"option {key} of bot {bot!r} wants {what}, not {value!r}")


def _wanted(hint: Any) -> list[type] | None:
    """The types text can express that a hint allows: [] when the hint says nothing
    text could be checked against, None when only a function (or None) will do."""
    arms = typing.get_args(hint) if _is_union(hint) else (hint,)
    kinds = [arm for arm in arms if arm in _WANTS]
    if kinds:
        return kinds
    if all(arm is type(None) or _is_function(arm) for arm in arms):
        return None
    return []


def _is_union(hint: Any) -> bool:
    return typing.get_origin(hint) in (typing.Union, types.UnionType)


def _is_function(hint: Any) -> bool:
    return hint is Callable or typing.get_origin(hint) is Callable


def _fits(value: Any, kind: type) -> bool:
    if isinstance(value, bool):
        return False  # text never reads as a bool; keep True from passing for 1
    if kind is float:
        return isinstance(value, (int, float))
    if kind is bool:
        return value in (0, 1) and isinstance(value, int)
    return isinstance(value, kind)
