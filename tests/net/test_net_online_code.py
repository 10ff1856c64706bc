"""Invitation and reply codes (durak_net/online_code.py): a description survives the
trip through a code, a code survives what a chat does to it, and a code that cannot be
used says so in one line with what to do next."""

# ruff: noqa: E501  (the SDP samples are quoted as the stacks write them, long lines and all)

from __future__ import annotations

import hashlib
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from durak_net import online_code as oc
from durak_net.online_code import Candidate, CodeError, Description

NOW = 1_800_000_000.0

#: What Chromium writes for a data channel in a namespace with a default route (mDNS
#: host candidates, a TCP candidate, the credentials and fingerprint in the section).
CHROMIUM_OFFER = """v=0\r
o=- 4215775240449105457 2 IN IP4 127.0.0.1\r
s=-\r
t=0 0\r
a=group:BUNDLE 0\r
a=extmap-allow-mixed\r
a=msid-semantic: WMS\r
m=application 51744 UDP/DTLS/SCTP webrtc-datachannel\r
c=IN IP4 0.0.0.0\r
a=candidate:2968403826 1 udp 2113937151 4b9d0f4e-1e51-4c3f-9b8f-2a8b2a2d3c01.local 51744 typ host generation 0 network-cost 999\r
a=candidate:1389434594 1 tcp 1518280447 4b9d0f4e-1e51-4c3f-9b8f-2a8b2a2d3c01.local 9 typ host tcptype active generation 0 network-cost 999\r
a=candidate:842163049 1 udp 1677729535 198.51.100.20 61012 typ srflx raddr 0.0.0.0 rport 0 generation 0 network-cost 999\r
a=ice-ufrag:sZ2b\r
a=ice-pwd:JvUKvxKc9zkM3h/2vBf4+IRb\r
a=ice-options:trickle\r
a=fingerprint:sha-256 5C:19:2E:61:7A:0B:33:D4:8E:F2:10:6C:9A:47:BE:05:21:D8:73:0F:66:E9:5A:C1:34:8B:F7:02:AD:19:C6:E0\r
a=setup:actpass\r
a=mid:0\r
a=sctp-port:5000\r
a=max-message-size:262144\r
"""

#: What aiortc writes as an answer (candidates before the credentials, three
#: fingerprints, an IPv6 candidate).
AIORTC_ANSWER = """v=0\r
o=- 4004672652 4004672652 IN IP4 0.0.0.0\r
s=-\r
t=0 0\r
a=group:BUNDLE 0\r
a=msid-semantic:WMS *\r
m=application 34909 UDP/DTLS/SCTP webrtc-datachannel\r
c=IN IP4 10.77.0.2\r
a=mid:0\r
a=sctp-port:5000\r
a=max-message-size:262144\r
a=candidate:f957a2332b1715da3b0ef8ba684454eb 1 udp 2130706431 10.77.0.2 34909 typ host\r
a=candidate:d0bcf3d9c29a2bc887618212a1623bfa 1 udp 2130706431 fd00::2 56181 typ host\r
a=end-of-candidates\r
a=ice-ufrag:kGiG\r
a=ice-pwd:ZDStWZOZiuQgKqKqmT3GEH\r
a=fingerprint:sha-256 38:D2:2C:9A:FE:E5:42:C0:1E:35:AA:9B:42:66:79:95:25:74:70:A5:65:02:02:15:00:C0:3A:0E:FB:94:8E:A9\r
a=fingerprint:sha-384 DC:76:42:CD:4F:85:F7:3C:B6:CD:86:00:7D:76:5C:89:EB:B4:42:2E:C3:86:D2:F4:39:DE:E8:DE:16:14:90:EF:1C:16:9B:8C:ED:59:E8:D3:60:52:77:55:89:6B:5B:DD\r
a=setup:active\r
"""

ice_text = st.text(alphabet=oc.ICE_CHARS, min_size=1, max_size=64)
ipv4 = st.ip_addresses(v=4).map(str)
ipv6 = st.ip_addresses(v=6).map(str)
mdns = st.uuids().map(lambda u: f"{u}.local")
hostname = st.from_regex(r"\A[a-z][a-z0-9-]{0,30}\.(example|test|local)\Z")
candidates = st.builds(Candidate, st.one_of(ipv4, ipv6, mdns, hostname),
                       st.integers(1, 65535), st.sampled_from(oc.CANDIDATE_TYPES))
descriptions = st.builds(
    Description,
    st.sampled_from(oc.KINDS),
    ice_text,
    ice_text,
    st.binary(min_size=32, max_size=32),
    st.sampled_from(oc.SETUPS),
    st.lists(candidates, max_size=8, unique=True).map(tuple),
    st.one_of(st.just("0"), st.text(string.ascii_letters + string.digits, min_size=1,
                                     max_size=8)),
    st.one_of(st.just(5000), st.integers(1, 65535)),
)


@settings(max_examples=300, deadline=None)
@given(descriptions)
def test_every_description_comes_back_whole_from_its_code(d: Description) -> None:
    code = oc.pack_description(oc.to_sdp(d), d.kind, now=NOW)
    assert code.isalnum() and all(c in oc.ALPHABET for c in code)
    kind, sdp = oc.unpack_description(code, now=NOW)
    assert kind == d.kind
    assert oc.parse_sdp(sdp, kind) == d
    # The expanded description packs to the very same code.
    assert oc.pack_description(sdp, kind, now=NOW) == code


@settings(max_examples=100, deadline=None)
@given(descriptions, st.booleans())
def test_a_code_reads_back_deflated_or_not(d: Description, deflate: bool) -> None:
    data = oc.encode(d, 1_900_000_000, deflate=deflate)
    assert oc.read_code(oc.base58_encode(data), now=NOW) == (d, 1_900_000_000)


def test_deflate_is_used_only_when_it_makes_the_code_shorter() -> None:
    repetitive = Description("offer", "A" * 200, "B" * 200, bytes(32), "actpass")
    data = oc.encode(repetitive, 0)
    assert data[1] & 0x08 and len(data) < len(oc.encode(repetitive, 0, deflate=False))
    random_ish = oc.parse_sdp(CHROMIUM_OFFER, "offer")
    assert not oc.encode(random_ish, 0)[1] & 0x08


@given(st.binary(max_size=64))
def test_base58_round_trips_with_leading_zero_bytes(data: bytes) -> None:
    assert oc.base58_decode(oc.base58_encode(data)) == data


def test_what_chromium_writes_keeps_only_what_ice_and_dtls_need() -> None:
    d = oc.parse_sdp(CHROMIUM_OFFER, "offer")
    assert (d.ufrag, d.pwd, d.setup, d.mid, d.sctp_port) == (
        "sZ2b", "JvUKvxKc9zkM3h/2vBf4+IRb", "actpass", "0", 5000)
    assert d.fingerprint.hex().startswith("5c192e61")
    # The TCP candidate is left out; the UDP host (mDNS) and server-reflexive ones stay.
    assert d.candidates == (
        Candidate("4b9d0f4e-1e51-4c3f-9b8f-2a8b2a2d3c01.local", 51744, "host"),
        Candidate("198.51.100.20", 61012, "srflx"),
    )
    code = oc.pack_description(CHROMIUM_OFFER, "offer", now=NOW)
    assert len(code) < 130, code
    _, sdp = oc.unpack_description(code, now=NOW)
    assert "a=candidate:1 1 udp 2130706431 4b9d0f4e-1e51-4c3f-9b8f-2a8b2a2d3c01.local 51744 " \
        "typ host generation 0" in sdp
    assert "typ srflx raddr 0.0.0.0 rport 0" in sdp
    assert "a=ice-pwd:JvUKvxKc9zkM3h/2vBf4+IRb\r\n" in sdp


def test_what_aiortc_writes_keeps_its_sha256_fingerprint_and_both_families() -> None:
    d = oc.parse_sdp(AIORTC_ANSWER, "answer")
    assert d.setup == "active" and d.ufrag == "kGiG"
    assert d.fingerprint.hex().startswith("38d22c9a")
    assert [c.address for c in d.candidates] == ["10.77.0.2", "fd00::2"]
    code = oc.pack_description(AIORTC_ANSWER, "answer", now=NOW)
    assert len(code) < 120, code
    assert oc.unpack_description(code, now=NOW)[0] == "answer"


def test_expansion_lists_candidates_in_order_of_priority() -> None:
    d = oc.parse_sdp(CHROMIUM_OFFER, "offer")
    host, srflx = (oc.priority(c, i) for i, c in enumerate(d.candidates))
    assert host > srflx
    assert oc.priority(Candidate("10.0.0.1", 1), 0) > oc.priority(Candidate("10.0.0.2", 1), 1)


@pytest.mark.parametrize("bad, why", [
    ("v=0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\n", "data-channel-only"),
    (CHROMIUM_OFFER.replace("a=fingerprint:sha-256", "a=fingerprint:sha-1"), "sha-256"),
    (CHROMIUM_OFFER.replace("a=ice-pwd:", "a=x-pwd:"), "ufrag and password"),
    (CHROMIUM_OFFER.replace("a=setup:actpass", "a=setup:holdconn"), "setup"),
    (CHROMIUM_OFFER.replace("a=ice-ufrag:sZ2b", "a=ice-ufrag:s Z-2b"), "ICE characters"),
    (CHROMIUM_OFFER.replace("m=application",
                            "m=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\nm=application"),
     "found 2"),
])
def test_a_description_a_code_cannot_carry_is_refused_when_packed(bad: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        oc.pack_description(bad, "offer", now=NOW)


def test_pack_refuses_an_unknown_kind_and_a_ttl_that_is_not_positive() -> None:
    with pytest.raises(ValueError, match="kind"):
        oc.pack_description(CHROMIUM_OFFER, "pranswer", now=NOW)
    with pytest.raises(ValueError, match="ttl"):
        oc.pack_description(CHROMIUM_OFFER, "offer", now=NOW, ttl=0)


# ------------------------------------------------------------ what a chat does


def test_a_code_wrapped_quoted_and_split_over_lines_still_reads() -> None:
    code = oc.pack_description(CHROMIUM_OFFER, "offer", now=NOW)
    mangled = f"  `{code[:40]}\n{code[40:80]}\r\n {code[80:]}`  "
    assert oc.unpack_description(mangled, now=NOW) == oc.unpack_description(code, now=NOW)
    assert oc.unpack_description(f'"{code}"', now=NOW)[0] == "offer"


def test_a_code_is_good_until_its_ttl_runs_out() -> None:
    code = oc.pack_description(CHROMIUM_OFFER, "offer", now=NOW, ttl=600)
    assert oc.unpack_description(code, now=NOW + 600)[0] == "offer"
    with pytest.raises(CodeError, match="expired 2 min ago: ask for a new one"):
        oc.unpack_description(code, now=NOW + 720)
    default = oc.pack_description(CHROMIUM_OFFER, "offer", now=NOW)
    assert oc.read_code(default, now=NOW)[1] == NOW + oc.DEFAULT_TTL


def _one_line(exc: pytest.ExceptionInfo[CodeError]) -> str:
    text = str(exc.value)
    assert "\n" not in text and text.strip() == text and len(text) < 160
    return text


def test_a_cut_short_or_mistyped_code_says_so_in_one_line() -> None:
    code = oc.pack_description(CHROMIUM_OFFER, "offer", now=NOW)
    swapped = code[:20] + ("2" if code[20] != "2" else "3") + code[21:]
    for bad in (code[:-1], code[:60], swapped, code + "z"):
        with pytest.raises(CodeError) as exc:
            oc.unpack_description(bad, now=NOW)
        assert "cut short or mistyped: paste the whole code" in _one_line(exc)


@pytest.mark.parametrize("text", ["O0Il", "hello, world!", "x" * 5000])
def test_text_that_is_no_code_at_all_says_so_in_one_line(text: str) -> None:
    with pytest.raises(CodeError) as exc:
        oc.unpack_description(text, now=NOW)
    assert "not a durak code" in _one_line(exc)


def test_an_empty_paste_says_so() -> None:
    with pytest.raises(CodeError) as exc:
        oc.unpack_description("  \n ", now=NOW)
    assert "empty" in _one_line(exc)


def _with(data: bytes) -> str:
    """A code of these bytes, with a valid check."""
    return oc.base58_encode(data + oc.check(data))


def test_a_code_of_another_version_names_both_versions() -> None:
    data = oc.encode(oc.parse_sdp(CHROMIUM_OFFER, "offer"), 2_000_000_000)[:-oc.CHECK_SIZE]
    for version in (3, 4, 5, 7, 200):
        with pytest.raises(CodeError) as exc:
            oc.unpack_description(_with(bytes([version]) + data[1:]), now=NOW)
        assert (f"another version of durak (protocol {version}, this is 6): both players "
                "need the same version") in _one_line(exc)


def test_a_code_with_unknown_flags_asks_for_the_same_version() -> None:
    data = oc.encode(oc.parse_sdp(CHROMIUM_OFFER, "offer"), 2_000_000_000)[:-oc.CHECK_SIZE]
    with pytest.raises(CodeError) as exc:
        oc.unpack_description(_with(data[:1] + bytes([data[1] | 0x80]) + data[2:]), now=NOW)
    assert "same version" in _one_line(exc)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=120))
def test_any_bytes_with_a_good_check_give_a_description_or_one_clear_line(
    body: bytes,
) -> None:
    head = bytes([oc.CODE_VERSION]) + (2_000_000_000).to_bytes(4, "big")
    for flags in (0x00, 0x01, 0x08, 0x30):
        code = _with(head[:1] + bytes([flags]) + head[1:] + body)
        try:
            kind, sdp = oc.unpack_description(code, now=NOW)
        except CodeError as exc:
            assert "\n" not in str(exc)
        else:
            assert oc.parse_sdp(sdp, kind).kind == kind


def test_the_example_descriptions_are_fixed() -> None:
    """The docs and vectors quote these: they must not change between runs."""
    offer = oc.example_sdp("offer")
    assert offer == oc.example_sdp("offer")
    assert hashlib.sha256(f"durak example {'offer'}".encode()).hexdigest()[:8].upper() in \
        offer.replace(":", "")


def test_the_lines_speak_the_terminals_language() -> None:
    from durak_net import i18n

    code = oc.pack_description(CHROMIUM_OFFER, "offer", now=NOW, ttl=60)
    try:
        i18n.use("ru")
        with pytest.raises(CodeError, match="срок кода истёк 1 мин назад: попросите новый"):
            oc.unpack_description(code, now=NOW + 120)
    finally:
        i18n.use("en")
