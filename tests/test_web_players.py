"""The Players page against the real server: anyone reads the names, a paired phone
adds, renames and removes them, the table's setup sees them at once, and every hostile
request is refused in one line without changing the file."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("aiohttp")

from controller.history.record import record_of
from controller.history.store import HistoryStore
from controller.players import book
from controller.players.person import Person
from controller.testing.files import fill
from tests.history_games import played
from tests.test_web import ServedTable, client_session, pair, run


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[ServedTable, Path]]:
    state = tmp_path / "state"
    state.mkdir()
    table = ServedTable(state_dir=state, language="de")
    table.rig.start()
    table.rig.app.loop.draw()
    yield table, state
    table.close()


async def send(client: Any, url: str, body: bytes, csrf: str | None) -> tuple[int, Any]:
    headers = {"Content-Type": "application/json"}
    if csrf:
        headers["X-CSRF-Token"] = csrf
    async with client.post(url + "/api/players", data=body, headers=headers) as response:
        return response.status, await response.json()


def as_json(data: object) -> bytes:
    return json.dumps(data).encode()


def test_a_paired_phone_keeps_the_names_and_the_setup_sees_them(
    served: tuple[ServedTable, Path],
) -> None:
    table, state = served

    async def session() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        async with client_session() as client:
            async with client.get(table.url + "/api/players") as response:
                seen["empty"] = await response.json()
            seen["unpaired"] = await send(
                client, table.url, as_json({"action": "add", "name": "Anna"}), None
            )
            csrf = await pair(client, table)
            for name in ("Anna", "Ben", "Oma"):
                status, _ = await send(
                    client, table.url, as_json({"action": "add", "name": name}), csrf
                )
                assert status == 200
            seen["twice"] = await send(
                client, table.url, as_json({"action": "add", "name": "anna"}), csrf
            )
            seen["renamed"] = await send(
                client, table.url, as_json({"action": "rename", "id": "p2", "name": "Benni"}), csrf
            )
            seen["removed"] = await send(
                client, table.url, as_json({"action": "remove", "id": "p3"}), csrf
            )
            async with client.get(table.url + "/players") as response:
                seen["page"] = (response.status, await response.text())
        return seen

    seen = run(session())
    assert seen["empty"] == {"players": [], "keeps": True, "max_players": 40, "max_length": 20}
    assert seen["unpaired"][0] == 403
    assert seen["twice"] == (400, {"error": "„anna“ ist schon ein Spieler"})
    status, renamed = seen["renamed"]
    assert status == 200 and renamed["player"] == {"id": "p2", "name": "Benni"}
    status, removed = seen["removed"]
    assert removed["players"] == [{"id": "p1", "name": "Anna"}, {"id": "p2", "name": "Benni"}]
    assert book.read(state) == (Person("p1", "Anna"), Person("p2", "Benni"))
    # the table's setup reads the book each time it opens
    assert table.rig.app.table.options.named_players() == book.read(state)
    status, page = seen["page"]
    assert status == 200 and "Spieler mit Namen" in page and 'lang="de"' in page


HOSTILE: list[tuple[str, bytes, int]] = [
    ("ten megabytes", b'{"action": "add", "name": "' + b"A" * (10 << 20) + b'"}', 413),
    ("NaN as the name", b'{"action": "add", "name": NaN}', 400),
    ("Infinity as an id", b'{"action": "remove", "id": Infinity}', 400),
    ("nested too deep", b"[" * 8000 + b"]" * 8000, 400),
    ("nested object", b'{"action": "add", "name": {"name": {"name": "Anna"}}}', 400),
    ("empty body", b"", 400),
    ("not an object", b'["add", "Anna"]', 400),
    ("a thousand names", as_json({"action": "add", "name": [f"N{i}" for i in range(1000)]}), 400),
    ("a thousand names as a key", as_json({"action": "add", "names": ["A"] * 1000}), 400),
    ("an unknown action", as_json({"action": "drop", "id": "p1"}), 400),
    ("a control character", as_json({"action": "add", "name": "An\u0000na"}), 400),
    ("too long", as_json({"action": "add", "name": "x" * 21}), 400),
    ("not UTF-8", b'{"action": "add", "name": "\xff"}', 400),
]


@pytest.mark.parametrize(
    "body,status", [(b, s) for _, b, s in HOSTILE], ids=[n for n, _, _ in HOSTILE]
)
def test_hostile_requests_are_refused_in_one_line(
    served: tuple[ServedTable, Path], body: bytes, status: int
) -> None:
    table, state = served

    async def attack() -> tuple[int, Any]:
        async with client_session() as client:
            csrf = await pair(client, table)
            return await send(client, table.url, body, csrf)

    got, answer = run(attack())
    assert got == status
    assert isinstance(answer["error"], str) and "\n" not in answer["error"]
    assert not (state / book.NAME).exists()


def test_more_than_the_cap_is_refused_and_the_list_kept(served: tuple[ServedTable, Path]) -> None:
    table, state = served

    async def many() -> list[int]:
        async with client_session() as client:
            csrf = await pair(client, table)
            statuses = []
            for n in range(41):
                status, _ = await send(
                    client, table.url, as_json({"action": "add", "name": f"Kind {n}"}), csrf
                )
                statuses.append(status)
            return statuses

    statuses = run(many())
    assert statuses == [200] * 40 + [400]
    assert len(book.read(state)) == 40


def test_the_statistics_have_leaderboards_and_each_persons_dice(
    served: tuple[ServedTable, Path],
) -> None:
    table, state = served
    anna = book.PlayerBook(state).add("Anna")
    store = HistoryStore(state)
    store.open()
    for seed in range(3):
        session = played("maedn", "classic", ["human", "bot", "bot", "bot"], seed)
        session.people = {"red": anna}
        store.add(record_of(session, "finished", f"2026-03-0{seed + 1}T10:00:00+00:00", 4, "r"))
    store.close()

    async def read() -> Any:
        async with client_session() as client, client.get(table.url + "/api/stats") as response:
            return await response.json()

    stats = run(read())
    (entry,) = stats["leaderboards"]["maedn"]
    assert entry["name"] == "Anna" and entry["games"] == 3
    (person,) = stats["people"]
    assert person["person"] == "p1" and person["games"] == 3
    assert sum(person["dice"]["counts"]) == stats["players"]["red human"]["dice"]["dice"]


def test_deep_nesting_is_a_one_line_refusal_on_every_json_route(
    served: tuple[ServedTable, Path],
) -> None:
    """Nesting deep enough to exhaust Python's recursion fits in the server's 16 KiB: it
    is a malformed body (400, one line of JSON), not a server error."""
    table, _state = served

    async def nested() -> list[tuple[int, Any]]:
        body = b"[" * 8000 + b"]" * 8000
        headers = {"Content-Type": "application/json"}
        answers = []
        async with client_session() as client:
            for path in ("/api/pair", "/api/pair/code"):
                async with client.post(table.url + path, data=body, headers=headers) as r:
                    answers.append((r.status, await r.json()))
        return answers

    for status, answer in run(nested()):
        assert status == 400 and answer == {"error": "the body must be a JSON object"}


def test_a_full_disk_is_said_on_the_page_in_its_language_and_the_list_kept(
    small_disk: Path,
) -> None:
    """The book's write fails whole (atomic), and the page says why in a sentence of
    its own language, not an English errno fragment."""
    state = small_disk / "state"
    state.mkdir()
    book.PlayerBook(state).add("Anna")
    table = ServedTable(state_dir=state, language="de")
    table.rig.start()
    table.rig.app.loop.draw()
    try:
        fill(small_disk)

        async def add() -> tuple[int, Any]:
            async with client_session() as client:
                csrf = await pair(client, table)
                return await send(
                    client, table.url, as_json({"action": "add", "name": "Ben"}), csrf
                )

        status, answer = run(add())
    finally:
        table.close()
    assert status == 500, answer
    assert answer["error"] == "die Namen wurden nicht gespeichert: der Speicher ist voll", answer
    assert "\n" not in answer["error"]
    assert [p.name for p in book.read(state)] == ["Anna"]
    assert not list(state.glob(".players-*"))
