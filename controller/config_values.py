"""Typed reads from one TOML table of the config, each problem one line.

A wrong value is reported with its key, what was found and what is allowed, and the
read goes on with the default, so ``parse_config`` can list every problem of a file
at once. The lines are in the table's language: the panel's config-error screen shows
them (the language is set from the locale before the config is read).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from controller import i18n
from controller.i18n import _
from controller.input_checks import is_finite_number, quote

_TYPE_NAMES = {
    int: i18n.N_("an integer"),
    float: i18n.N_("a number"),
    bool: i18n.N_("true or false"),
    str: i18n.N_("a string"),
}


def describe(value: Any) -> str:
    kinds = {bool: i18n.N_("boolean"), int: i18n.N_("integer"), float: i18n.N_("number")}
    kind = kinds.get(type(value), i18n.N_("table") if isinstance(value, dict) else i18n.N_("array"))
    kind = i18n.N_("string") if isinstance(value, str) else kind
    return _("{value} ({kind})").format(value=quote(value), kind=_(kind))


class TomlTable:
    """One TOML table: typed reads with defaults, then a check for unknown keys."""

    def __init__(self, name: str, table: Any, errors: list[str]) -> None:
        self.name = name
        self.errors = errors
        self.known: list[str] = []
        self.broken = not isinstance(table, dict)
        """A table that is not a table: one error already, no "missing key" on top."""
        if self.broken:
            got = describe(table)
            errors.append(
                _("{name}: expected a table [{name}], got {got}").format(name=name, got=got)
            )
            table = {}

        self.table: dict[str, Any] = table

    def error(self, key: str, message: str) -> None:
        self.errors.append(f"{self.name}.{key}: {message}")

    def get(
        self,
        key: str,
        kind: type,
        default: Any,
        *,
        choices: Iterable[Any] | None = None,
        lo: float | None = None,
        hi: float | None = None,
        required: bool = False,
    ) -> Any:
        self.known.append(key)
        if key not in self.table:
            if required and not self.broken:
                message = _("missing")
                if choices is not None:
                    message = _("missing; allowed: {allowed}").format(allowed=join_values(choices))
                if lo is not None and hi is not None:
                    message = _("missing; allowed: {kind} from {lo} to {hi}").format(
                        kind=_(_TYPE_NAMES[kind]), lo=lo, hi=hi
                    )
                self.error(key, message)
            return default
        value = self.table[key]
        ok = isinstance(value, kind) and not (kind is not bool and isinstance(value, bool))
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value, ok = float(value), True
        if not ok:
            got = describe(value)
            self.error(
                key, _("expected {kind}, got {got}").format(kind=_(_TYPE_NAMES[kind]), got=got)
            )
            return default
        if kind in (int, float) and not is_finite_number(value):
            # NaN passes every comparison, infinity is no setting: both are refused here.
            message = _("{value} is not a finite number; allowed: {lo} to {hi}")
            self.error(key, message.format(value=repr(value), lo=lo, hi=hi))
            return default
        if choices is not None and value not in list(choices):
            message = _("{value} is not allowed; allowed: {allowed}")
            self.error(key, message.format(value=quote(value), allowed=join_values(choices)))
            return default
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            message = _("{value} is out of range; allowed: {lo} to {hi}")
            self.error(key, message.format(value=quote(value), lo=lo, hi=hi))
            return default
        return value

    def finish(self) -> None:
        for key in self.table:
            if key not in self.known:
                allowed = ", ".join(self.known)
                self.error(key, _("unknown key; allowed: {allowed}").format(allowed=allowed))


def join_values(values: Iterable[Any]) -> str:
    return ", ".join(repr(v) if isinstance(v, str) else str(v) for v in values)


def pin_value(table: TomlTable, key: str, default: int | None, required: bool = False) -> Any:
    return table.get(key, int, default, lo=0, hi=27, required=required)
