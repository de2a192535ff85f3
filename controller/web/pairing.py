"""Who may change the table: a code shown on the panel, then a session cookie.

Watching needs nothing. Changing anything needs a session, and a session needs the
code the panel shows (six digits, valid for :data:`CODE_S` seconds). Guessing is
rate-limited twice: a code is void after :data:`TRIES_PER_CODE` wrong tries (a new
one must be shown on the panel), and an address that typed :data:`TRIES_PER_CLIENT`
wrong codes waits :data:`LOCKOUT_S` seconds, and is told so at the try that locks it.
Every session carries its own CSRF token,
which every change must send back in a header: a form on another site can neither
read it nor send the cookie (``SameSite=Strict``). All of it lives in memory: after a
restart the phones pair again. The paired phones can be listed and forgotten one by one
(by any paired phone), and all at once by whoever can read a fresh code off the panel:
the table's owner, in the only sense the table knows.
"""

from __future__ import annotations

import hmac
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from controller import i18n
from controller.i18n import N_

CODE_S = 120.0
TRIES_PER_CODE = 5
TRIES_PER_CLIENT = 3
LOCKOUT_S = 30.0
SESSION_S = 30 * 24 * 3600.0
MAX_SESSIONS = 64
MAX_CLIENTS = 1024
NEW_CODE_GAP_S = 5.0


@dataclass
class PairSession:
    token: str
    csrf: str
    expires: float
    id: str = ""
    """A short public name for the list of phones: never the token, which it shows."""
    label: str = ""
    """What the phone said it is (its browser and system), for the list."""
    paired_at: float = 0.0
    """Wall-clock seconds (``time.time``), for the list."""


class PairingError(ValueError):
    """A refused pairing, in one line for the page: English as ``str()`` (the log),
    and in the page's language by :meth:`words`."""

    def __init__(self, message: str, status: int = 403, **values: object) -> None:
        super().__init__(message.format(**values))
        self.message = message
        self.status = status
        """The HTTP status the page gets: 403 refused, 429 wait and try again."""
        self.values = values

    def words(self, language: str) -> str:
        return i18n.translations(language).gettext(self.message).format(**self.values)


class Pairing:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.code: str | None = None
        self.code_expires = 0.0
        self.code_tries = 0
        self.last_code_at = -NEW_CODE_GAP_S
        self.sessions: dict[str, PairSession] = {}
        self.failures: dict[str, tuple[int, float]] = {}  # client -> (wrong tries, until)

    def new_code(self) -> str:
        """A fresh code for the panel (at most one per :data:`NEW_CODE_GAP_S`)."""
        now = self.clock()
        if self.code is not None and now - self.last_code_at < NEW_CODE_GAP_S:
            raise PairingError(N_("a code was just shown on the table: type that one"), 429)
        self.code = f"{secrets.randbelow(10**6):06d}"
        self.code_expires = now + CODE_S
        self.code_tries = 0
        self.last_code_at = now
        return self.code

    def pair(self, code: str, client: str, label: str = "") -> PairSession:
        """A new session for the right code; :class:`PairingError` otherwise."""
        now = self.clock()
        self._check(code, client, now)
        self._expire(now)
        if len(self.sessions) >= MAX_SESSIONS:
            oldest = min(self.sessions.values(), key=lambda s: s.expires)
            del self.sessions[oldest.token]
        session = PairSession(
            secrets.token_urlsafe(24),
            secrets.token_urlsafe(24),
            now + SESSION_S,
            secrets.token_hex(4),
            label[:80],
            time.time(),
        )
        self.sessions[session.token] = session
        return session

    def forget_all(self, code: str, client: str) -> int:
        """Forget every paired phone, for the right code (with the same limits on
        guessing as pairing): how many were forgotten."""
        self._check(code, client, self.clock())
        count = len(self.sessions)
        self.sessions.clear()
        return count

    def forget(self, session_id: str) -> bool:
        """Forget one paired phone by its public id: False if there is none."""
        for token, session in list(self.sessions.items()):
            if hmac.compare_digest(session.id.encode(), session_id.encode()):
                del self.sessions[token]
                return True
        return False

    def phones(self) -> list[PairSession]:
        """The paired phones, the first paired first."""
        self._expire(self.clock())
        return sorted(self.sessions.values(), key=lambda s: s.paired_at)

    def _check(self, code: str, client: str, now: float) -> None:
        """The code on the panel was typed: used up if right, counted if wrong."""
        wrong, until = self.failures.get(client, (0, 0.0))
        if now < until:
            raise PairingError(
                N_("too many wrong codes: wait {seconds} s"), 429, seconds=int(until - now) + 1
            )
        if self.code is None or now > self.code_expires:
            self.code = None
            raise PairingError(N_("no code is shown on the table: ask for one first"))
        if not hmac.compare_digest(code.strip().encode(), self.code.encode()):
            self.code_tries += 1
            wrong += 1
            if len(self.failures) >= MAX_CLIENTS:
                self.failures.clear()
            lock = now + LOCKOUT_S if wrong >= TRIES_PER_CLIENT else 0.0
            self.failures[client] = (0 if lock else wrong, lock)
            if self.code_tries >= TRIES_PER_CODE:
                self.code = None
            if lock:
                raise PairingError(
                    N_("wrong code, {tries} in a row: this phone is locked for {seconds} s"),
                    429,
                    tries=TRIES_PER_CLIENT,
                    seconds=int(LOCKOUT_S),
                )
            if self.code is None:
                raise PairingError(N_("wrong code; that code is void now: ask for a new one"))
            raise PairingError(N_("wrong code"))
        self.code = None
        self.failures.pop(client, None)

    def session(self, token: str | None) -> PairSession | None:
        if not token:
            return None
        session = self.sessions.get(token)
        if session is None or self.clock() > session.expires:
            self.sessions.pop(token, None)
            return None
        return session

    def allowed(self, token: str | None, csrf: str | None) -> bool:
        """A paired session whose CSRF token came along."""
        session = self.session(token)
        return (
            session is not None
            and csrf is not None
            and hmac.compare_digest(csrf.encode(), session.csrf.encode())
        )

    def _expire(self, now: float) -> None:
        for token in [t for t, s in self.sessions.items() if now > s.expires]:
            del self.sessions[token]
