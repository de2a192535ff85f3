"""Who may change the table: a code shown on the panel, then a session cookie.

Watching needs nothing. Changing anything needs a session, and a session needs the
code the panel shows (six digits, valid for :data:`CODE_S` seconds). Guessing is
rate-limited twice: a code is void after :data:`TRIES_PER_CODE` wrong tries (a new
one must be shown on the panel), and an address that typed :data:`TRIES_PER_CLIENT`
wrong codes waits :data:`LOCKOUT_S` seconds. Every session carries its own CSRF token,
which every change must send back in a header: a form on another site can neither
read it nor send the cookie (``SameSite=Strict``). All of it lives in memory: after a
restart the phones pair again.
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


class PairingError(ValueError):
    """A refused pairing, in one line for the page: English as ``str()`` (the log),
    and in the page's language by :meth:`words`."""

    def __init__(self, message: str, **values: object) -> None:
        super().__init__(message.format(**values))
        self.message = message
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
            raise PairingError(N_("a code was just shown on the table: type that one"))
        self.code = f"{secrets.randbelow(10**6):06d}"
        self.code_expires = now + CODE_S
        self.code_tries = 0
        self.last_code_at = now
        return self.code

    def pair(self, code: str, client: str) -> PairSession:
        """A new session for the right code; :class:`PairingError` otherwise."""
        now = self.clock()
        wrong, until = self.failures.get(client, (0, 0.0))
        if now < until:
            raise PairingError(
                N_("too many wrong codes: wait {seconds} s"), seconds=int(until - now) + 1
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
                raise PairingError(N_("wrong code; that code is void now: ask for a new one"))
            raise PairingError(N_("wrong code"))
        self.code = None
        self.failures.pop(client, None)
        self._expire(now)
        if len(self.sessions) >= MAX_SESSIONS:
            oldest = min(self.sessions.values(), key=lambda s: s.expires)
            del self.sessions[oldest.token]
        session = PairSession(secrets.token_urlsafe(24), secrets.token_urlsafe(24), now + SESSION_S)
        self.sessions[session.token] = session
        return session

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
