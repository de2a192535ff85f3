"""Who sits at each human seat of a game started from the Setup page: a named player
(``controller.players.book``) or a guest.

Why apart from the config's fields: a name is not a setting. The config file says what
sits at a seat (a human, a phone, a bot); which member of the family sits there changes
from one game to the next, so the page sends it only with "start", as the table's own
setup asks it only at its name rows, and nothing of it is saved into the file.

The page sends one entry per seat, a player's id or nothing (a guest). Each id must be
one the book still keeps (another phone may have removed it since the page loaded), at
a seat where a person plays, and no person sits at two seats. Every refusal is a
sentence marked for the catalog, shown beside its seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from controller.i18n import N_
from controller.players.person import Person

PERSON_SEATS = ("human", "phone", "coached")
"""The seat kinds a person plays at (a phone seat is a person with the page's buttons)."""


class PeopleMalformed(ValueError):
    """The request's ``people`` is not a list of ids and nulls, one per seat at most."""


@dataclass
class Seated:
    """The named players by seat index, and each seat's refusal (a marked sentence and
    its values) keyed by the page's field (``seat0``...)."""

    people: dict[int, Person] = field(default_factory=dict)
    errors: dict[str, tuple[str, dict[str, object]]] = field(default_factory=dict)


def seated(raw: object, kinds: Sequence[str], players: Sequence[Person]) -> Seated:
    """The named players ``raw`` (the page's list) puts at the seats ``kinds``."""
    if raw is None:
        return Seated()
    if not isinstance(raw, list) or len(raw) > len(kinds):
        raise PeopleMalformed("setup: people is one player id or null per seat")
    if not all(entry is None or isinstance(entry, str) for entry in raw):
        raise PeopleMalformed("setup: people is one player id or null per seat")
    kept = {player.id: player for player in players}
    found = Seated()
    where: dict[str, int] = {}
    for seat, ident in enumerate(raw):
        if not ident:
            continue
        key = f"seat{seat}"
        person = kept.get(ident)
        if person is None:
            text = N_("this player is no longer kept: reload the page")
            found.errors[key] = (text, {})
        elif kinds[seat] not in PERSON_SEATS:
            found.errors[key] = (N_("only a person at the table has a name"), {})
        elif person.id in where:
            text = N_("{name} already sits at seat {n}")
            found.errors[key] = (text, {"name": person.name, "n": where[person.id] + 1})
        else:
            where[person.id] = seat
            found.people[seat] = person
    return found
