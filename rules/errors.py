"""Errors raised by the rules layer.

Every error is a ``ValueError`` subclass so that callers (the CLI, the controller, a
script) can catch bad input with one ``except ValueError`` and show its message, which
always names the offending move, dice or position. The rules never raise a bare
``Exception`` and never use ``assert`` for input checks.
"""

from __future__ import annotations


class RulesError(ValueError):
    """Base class of everything the rules reject."""


class UnknownGameError(RulesError):
    """A game or preset name that is not in the registry."""


class InvalidStateError(RulesError):
    """A position that cannot occur: malformed JSON, two pieces on one field, ..."""


class InvalidDiceError(RulesError):
    """Dice that do not fit the chance node: a 7, the wrong number of dice, no roll due."""


class IllegalMoveError(RulesError):
    """A move that is not among the legal moves of the position."""


class NotDecisionError(RulesError):
    """Asked for moves where the dice must be rolled first, or the game is over."""


SHOWN_LIMIT = 60
"""At most this many characters of an input value appear in an error message."""


def shown(value: object, limit: int = SHOWN_LIMIT) -> str:
    """``repr(value)`` for an error message, cut to ``limit`` characters: a message
    names the offending input, but a 100 KB move or a 4 000-digit number must not come
    back whole."""
    try:
        text = repr(value)
    except ValueError:  # an int beyond Python's digit limit cannot be written out
        text = "<a number too long to show>"
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text)} characters)"
