"""libsodium in a web page's Python: the few pysodium functions durak_net uses, from
libsodium's own WebAssembly build.

The JupyterLite site's kernel is Pyodide, in a Web Worker.  It has no libsodium that
exposes ristretto255 (Pyodide's PyNaCl lacks the bindings; pysodium needs a shared
library), so the hidden-hand deal takes libsodium from where its author publishes it
for browsers: libsodium.js (npm ``libsodium-wrappers-sumo``, the "sumo" build being
the one with ``crypto_core_ristretto255_*``).  scripts/lite_site.py bundles its ES
module files into the site (``static/sodium/``, next to Pyodide's ``static/pyodide/``:
no CDN), and :func:`load` imports them into the kernel's worker through Pyodide's
JavaScript bridge.

:class:`LibsodiumJs` gives the functions under pysodium's names and conventions (bytes
in, bytes out, ``ValueError`` when libsodium refuses), so :func:`durak_net.mental.sodium`
hands it to the dealer, the audit and the escrow in place of pysodium, and nothing
above it knows which one it got.  No arithmetic happens here: every call is one call of
a libsodium function.

Loading is asynchronous (a module import and WebAssembly's instantiation are promises
in a browser), and the deal's code is not: so the page's Python awaits :func:`load`
once before it deals (``await durak_net.mental.load_sodium()``).  Code that calls
:func:`durak_net.mental.sodium` first still gets the library where the browser can
block on a promise (JavaScript Promise Integration, in a notebook cell) and otherwise a
clear :class:`~durak_net.mental.SodiumMissing` saying what to await.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

#: The ES module of libsodium.js's wrappers, as the site serves it (its import of the
#: WebAssembly module, ``libsodium-sumo.mjs``, is relative: the same folder).
WRAPPERS_FILE: Final = "libsodium-wrappers.mjs"
#: Where the site serves libsodium.js, relative to Pyodide's own folder (its index URL).
FROM_PYODIDE: Final = "../sodium/"

ToJs = Callable[[bytes], Any]


class LibsodiumJs:
    """libsodium.js's wrappers under pysodium's names and conventions.

    ``wrappers`` is the module's ``sodium`` object (after ``sodium.ready``),
    ``to_js`` turns bytes into a ``Uint8Array`` (Pyodide's ``to_js``), and ``js_error``
    is the exception a JavaScript ``throw`` becomes in Python (Pyodide's
    ``JsException``): libsodium.js throws when libsodium returns an error (a point that
    is not in the group, a zero scalar to invert, a box that does not open), which
    pysodium reports as ``ValueError``, and so does this class.
    """

    def __init__(self, wrappers: Any, to_js: ToJs, js_error: type[BaseException]) -> None:
        self._s = wrappers
        self._to_js = to_js
        self._error = js_error

    def _call(self, name: str, *args: bytes) -> Any:
        function = getattr(self._s, name)
        try:
            return function(*(self._to_js(a) for a in args))
        except self._error as exc:
            raise ValueError(f"libsodium {name}: {exc}") from None

    def _bytes(self, name: str, *args: bytes) -> bytes:
        return bytes(self._call(name, *args).to_bytes())

    # ---- ristretto255: the mental-poker deal (durak_net.mental, dealer, audit)

    def crypto_core_ristretto255_from_hash(self, r: bytes) -> bytes:
        return self._bytes("crypto_core_ristretto255_from_hash", r)

    def crypto_core_ristretto255_scalar_reduce(self, s: bytes) -> bytes:
        return self._bytes("crypto_core_ristretto255_scalar_reduce", s)

    def crypto_core_ristretto255_scalar_mul(self, x: bytes, y: bytes) -> bytes:
        return self._bytes("crypto_core_ristretto255_scalar_mul", x, y)

    def crypto_core_ristretto255_scalar_invert(self, s: bytes) -> bytes:
        return self._bytes("crypto_core_ristretto255_scalar_invert", s)

    def crypto_scalarmult_ristretto255(self, n: bytes, p: bytes) -> bytes:
        return self._bytes("crypto_scalarmult_ristretto255", n, p)

    def crypto_core_ristretto255_is_valid_point(self, p: bytes) -> bool:
        return len(p) == 32 and bool(self._call("crypto_core_ristretto255_is_valid_point", p))

    # ---- Ed25519 to X25519 and crypto_box: the escrow of a seed (durak_net.escrow)

    def crypto_sign_seed_keypair(self, seed: bytes) -> tuple[bytes, bytes]:
        pair = self._call("crypto_sign_seed_keypair", seed)
        return bytes(pair.publicKey.to_bytes()), bytes(pair.privateKey.to_bytes())

    def crypto_sign_pk_to_box_pk(self, pk: bytes) -> bytes:
        return self._bytes("crypto_sign_ed25519_pk_to_curve25519", pk)

    def crypto_sign_sk_to_box_sk(self, sk: bytes) -> bytes:
        return self._bytes("crypto_sign_ed25519_sk_to_curve25519", sk)

    def crypto_box(self, msg: bytes, nonce: bytes, pk: bytes, sk: bytes) -> bytes:
        return self._bytes("crypto_box_easy", msg, nonce, pk, sk)

    # ---- X25519 and Ed25519: pairing and signatures where ``cryptography`` is missing
    #      (durak_net.primitives)

    def crypto_scalarmult_curve25519_base(self, n: bytes) -> bytes:
        return self._bytes("crypto_scalarmult_base", n)

    def crypto_scalarmult_curve25519(self, n: bytes, p: bytes) -> bytes:
        return self._bytes("crypto_scalarmult", n, p)

    def crypto_sign_detached(self, msg: bytes, sk: bytes) -> bytes:
        return self._bytes("crypto_sign_detached", msg, sk)

    def crypto_sign_verify_detached(self, sig: bytes, msg: bytes, pk: bytes) -> None:
        """Raises ``ValueError`` for a bad signature, as pysodium does (libsodium.js
        answers false)."""
        if not self._call("crypto_sign_verify_detached", sig, msg, pk):
            raise ValueError("libsodium crypto_sign_verify_detached: a bad signature")

    def crypto_box_open(self, c: bytes, nonce: bytes, pk: bytes, sk: bytes) -> bytes:
        return self._bytes("crypto_box_open_easy", c, nonce, pk, sk)


_loaded: LibsodiumJs | None = None


def loaded() -> LibsodiumJs | None:
    """The library once :func:`load` has finished, else None."""
    return _loaded


def library_url() -> str:
    """Where this page serves libsodium.js's wrappers: beside Pyodide's folder."""
    import pyodide_js  # type: ignore[import-not-found]  # only in Pyodide
    from js import URL  # type: ignore[import-not-found]

    # Pyodide's index URL (the folder pyodide.asm.wasm came from) is where the site put
    # it; the worker's own address is the kernel extension's and says nothing of that.
    index_url = str(pyodide_js._api.config.indexURL)
    return str(URL.new(FROM_PYODIDE + WRAPPERS_FILE, index_url).href)


async def load(url: str | None = None) -> LibsodiumJs:
    """Import libsodium.js into this worker and wait until it is ready (once).

    ``url`` is the wrappers' ES module (default: :func:`library_url`).  Raises
    ``RuntimeError`` naming the URL if the page cannot load it (a site built without
    it, or served from elsewhere).
    """
    global _loaded
    if _loaded is not None:
        return _loaded
    from pyodide.code import run_js  # type: ignore[import-not-found]

    ffi = _ffi()
    where = url or library_url()
    try:
        module = await run_js(f"import({_js_string(where)})")
        wrappers = module.default
        await wrappers.ready
    except ffi.JsException as exc:
        raise RuntimeError(f"libsodium.js could not be loaded from {where}: {exc}") from None
    _loaded = LibsodiumJs(wrappers, ffi.to_js, ffi.JsException)
    return _loaded


def load_now() -> LibsodiumJs | None:
    """:func:`load`, blocking, where this browser and call stack can block on a promise
    (JavaScript Promise Integration, as in a notebook cell); None where they cannot
    (in a comm message's handler, say)."""
    if _loaded is not None:
        return _loaded
    ffi = _ffi()
    if not ffi.can_run_sync():
        return None
    result: LibsodiumJs = ffi.run_sync(load())
    return result


def _ffi() -> Any:
    """Pyodide's ``pyodide.ffi`` (the bridge's conversions and exceptions)."""
    from pyodide import ffi  # type: ignore[import-not-found]  # only in Pyodide

    return ffi


def _js_string(text: str) -> str:
    """``text`` as a JavaScript string literal (JSON's is one)."""
    import json

    return json.dumps(text)
