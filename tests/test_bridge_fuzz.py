"""Fuzz both serial bridge parsers: garbage and bit flips never crash or wedge them.

Seeded, so a failure reproduces. 100 000 random chunks go into the host decoder and
into the firmware's ``Link`` (decoder plus packet handling); valid packets are mixed
in and must all come out, in order, once the garbage around them has been read.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from hardware import bridge_protocol as bp

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"
sys.path.insert(0, str(FIRMWARE))

import protocol as fw  # noqa: E402  (firmware modules are top-level modules, as on the Pico)
from link import Link  # noqa: E402

CHUNKS = 100_000
MAX_PACKET = 7 + 768 + 4  # a 16×16 panel


class NullPanel:
    width = 16
    height = 16

    def __init__(self) -> None:
        self.frames = 0

    def show(self, frame: bytearray) -> None:
        self.frames += 1

    def set_brightness(self, level: int) -> None:
        pass


def stream(seed: int) -> tuple[list[bytes], list[tuple[int, int, bytes]]]:
    """Random chunks with a valid packet after every ~1000 chunks (a few bytes of which
    are sometimes torn off, so the parser must also recover from truncated packets)."""
    rng = random.Random(seed)
    chunks: list[bytes] = []
    expected: list[tuple[int, int, bytes]] = []
    seq = 0
    for i in range(CHUNKS):
        chunks.append(rng.randbytes(rng.randint(1, 48)))
        if i % 997 == 0:
            seq = (seq + 1) & 0xFF
            if rng.random() < 0.5:
                ptype, payload = fw.FRAME, rng.randbytes(768)
            else:
                ptype, payload = fw.PING, rng.randbytes(rng.randint(0, 32))
            packet = fw.encode(ptype, seq, payload)
            if rng.random() < 0.1:
                chunks.append(packet[: rng.randint(1, len(packet) - 1)])  # torn, lost
            else:
                expected.append((ptype, seq, payload))
                # random split points inside the packet
                cut = rng.randint(0, len(packet))
                chunks += [packet[:cut], packet[cut:]]
    chunks.append(bytes(MAX_PACKET))  # flush: enough bytes to decide any false header
    return chunks, expected


def test_host_parser_survives_100k_random_chunks_and_keeps_valid_packets() -> None:
    chunks, expected = stream(seed=8)
    decoder = bp.Decoder(max_payload=768)
    got: list[tuple[int, int, bytes]] = []
    for chunk in chunks:
        got += [(p.type, p.seq, p.payload) for p in decoder.feed(chunk)]
        assert decoder.pending <= MAX_PACKET  # bounded: never stuck on old bytes
    assert got == expected
    assert decoder.dropped > CHUNKS  # it really did skip garbage


def test_firmware_link_survives_100k_random_chunks_and_answers_valid_packets() -> None:
    chunks, expected = stream(seed=9)
    panel = NullPanel()
    answers: list[tuple[int, int]] = []
    host = bp.Decoder()

    def write(data: bytes) -> None:
        answers.extend((p.type, p.seq) for p in host.feed(data))

    link = Link(panel, write, [(0, fw.BTN_OK)])
    for now, chunk in enumerate(chunks):
        link.feed(chunk, now)
        assert link.decoder.n <= MAX_PACKET
    want = [(fw.ACK if t == fw.FRAME else fw.PONG, s) for t, s, _ in expected]
    assert answers == want
    assert panel.frames == sum(1 for t, _, _ in expected if t == fw.FRAME)


def test_bit_flipped_frames_are_rejected_and_the_next_frame_is_accepted() -> None:
    """Every 1-3 bit corruption of a FRAME is caught; the good frame after it arrives."""
    rng = random.Random(10)
    good = rng.randbytes(768)
    host = bp.Decoder(max_payload=768)
    fw_seen: list[bytes] = []
    firmware = fw.Decoder(768)
    for trial in range(400):
        packet = bytearray(fw.encode(fw.FRAME, trial & 0xFF, rng.randbytes(768)))
        for _ in range(rng.randint(1, 3)):
            bit = rng.randrange(len(packet) * 8)
            packet[bit // 8] ^= 1 << (bit % 8)
        follow = fw.encode(fw.FRAME, 0xEE, good)
        # the corrupted LEN may ask for up to one maximal packet more before it is refuted
        data = bytes(packet) + follow + bytes(MAX_PACKET)
        got = [p.payload for p in host.feed(data)]
        assert got == [good], trial
        firmware.feed(data, lambda t, s, p: fw_seen.append(bytes(p)))
        assert fw_seen == [good], trial
        fw_seen.clear()


def test_random_payloads_only_ever_raise_the_protocol_error() -> None:
    """The host's payload parsers: malformed contents are one clear ValueError."""
    rng = random.Random(11)
    rejected = 0
    for _ in range(20_000):
        payload = rng.randbytes(rng.randint(0, 40))
        for parse in (bp.HelloInfo.parse, bp.ButtonReport.parse):
            try:
                parse(payload)
            except bp.BridgeProtocolError as exc:
                assert "\n" not in str(exc)
                rejected += 1
    assert rejected > 39_000
