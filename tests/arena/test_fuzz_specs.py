"""Fuzzing the bot specs a person types on the command line: a spec or a ValueError.

``BotSpec.parse`` reads ``builtin:NAME?k=v``, ``py:FILE.py:CLASS?k=v`` and
``cmd:COMMAND``; anything else, and any option a bot does not take or of the wrong type,
must come back as a ValueError of one line, never another exception.
"""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from durak_arena.referee import BotSpec
from durak_core.bots import REGISTRY

_KEYS = ["ms", "iterations", "c", "epsilon", "greedy_first", "paired", "width", "depth",
         "model", "clock", "seed", "speed", ""]
_VALUES = ["1", "0", "-5", "2.5", "abc", "nan", "inf", "1e400", "", "=", "100", "0.0"]
OPTION = st.builds(lambda k, v: f"{k}={v}", st.sampled_from(_KEYS), st.sampled_from(_VALUES))
BUILTIN = st.builds(
    lambda name, opts, label: f"builtin:{name}" + (f"?{'&'.join(opts)}" if opts else "") + label,
    st.sampled_from([*REGISTRY, "nosuch", ""]),
    st.lists(st.one_of(OPTION, st.text(max_size=6)), max_size=3),
    st.sampled_from(["", "#2", "#"]),
)
SPEC = st.one_of(
    st.text(),
    BUILTIN,
    st.builds(lambda rest: f"py:{rest}", st.text(max_size=20)),
    st.builds(
        lambda where, name, opts: f"py:{where}.py:{name}" + (f"?{'&'.join(opts)}" if opts else ""),
        st.one_of(st.text(max_size=8), st.sampled_from(["tests/arena/fixtures/randombot"])),
        st.text(max_size=6),
        st.lists(OPTION, max_size=2),
    ),
    st.builds(lambda rest: f"cmd:{rest}", st.text(alphabet="ab \"'\\-", max_size=12)),
)


@given(SPEC)
@example("builtin:ismcts?ms=abc")
@example("builtin:ismcts?clock=1")
@example("builtin:ismcts?seed=1")
@example("builtin:random?=")
@example('cmd:"unterminated')
@example("py:nofile.py:Bot")
@example("py::")
@example("py:a\nb.py:X")
def test_a_bot_spec_parses_or_says_why_not(text: str) -> None:
    try:
        spec = BotSpec.parse(text)
    except ValueError as exc:
        message = str(exc)
        assert message.strip() and "\n" not in message, repr(message)
    else:
        assert spec.text == text and spec.kind in ("builtin", "py", "cmd")
