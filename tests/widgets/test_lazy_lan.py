"""A table against bots starts without the LAN package; ``lan`` is still the lobby.

``from durak_widgets import play`` is the play notebook's first cell (and the JupyterLite
site's, and the Voila app's): what it imports is the wait before the first table.  LAN
play (durak_net: sockets, the lobby, mental poker with libsodium and ``cryptography``)
is imported only when ``lan`` is first asked for.  Each check runs in a fresh
interpreter, since this one has long imported everything.
"""

from __future__ import annotations

import json
import subprocess
import sys

#: What belongs to LAN play alone: durak_net and the libraries only it uses.
LAN_ONLY = ("durak_net", "msgspec", "cryptography", "nacl", "pysodium", "spake2")


def loaded_after(code: str) -> dict[str, object]:
    """Run ``code`` in a fresh interpreter; what it printed last, as JSON."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_importing_the_table_imports_nothing_of_lan_play() -> None:
    found = loaded_after(
        "import json, sys\n"
        "from durak_widgets import play\n"
        f"lan_only = {LAN_ONLY!r}\n"
        "print(json.dumps({'loaded': sorted(m for m in sys.modules\n"
        "                  if m.split('.')[0] in lan_only)}))\n"
    )
    assert found["loaded"] == []


def test_lan_is_the_lobby_function_and_imports_the_network_when_asked_for() -> None:
    found = loaded_after(
        "import json, sys\n"
        "from durak_widgets import lan\n"
        "print(json.dumps({'name': lan.__module__ + '.' + lan.__name__,\n"
        "                  'node': 'durak_net.node' in sys.modules}))\n"
    )
    assert found == {"name": "durak_widgets.lan.lan", "node": True}


def test_lan_stays_the_function_when_its_module_was_imported_first() -> None:
    """``durak_widgets.lan`` is also the lobby's module; importing that module (as the
    LAN tests do) must not turn a later ``from durak_widgets import lan`` into it."""
    found = loaded_after(
        "import json\n"
        "from durak_widgets.lan import LanLobby\n"
        "import durak_widgets\n"
        "from durak_widgets import lan\n"
        "print(json.dumps({'callable': callable(lan), 'same': durak_widgets.lan is lan,\n"
        "                  'name': lan.__name__}))\n"
    )
    assert found == {"callable": True, "same": True, "name": "lan"}


def test_online_is_the_online_function_whatever_was_imported_first() -> None:
    """``online`` (play over WebRTC) is the LAN lobby's sibling: imported when asked
    for, and still the function after its module was imported."""
    found = loaded_after(
        "import json, sys\n"
        "from durak_widgets import play\n"
        "before = 'durak_widgets.online' in sys.modules\n"
        "from durak_widgets.online import online as direct\n"
        "import durak_widgets\n"
        "from durak_widgets import online\n"
        "print(json.dumps({'before': before, 'same': online is direct,\n"
        "                  'attr': durak_widgets.online is direct}))\n"
    )
    assert found == {"before": False, "same": True, "attr": True}
