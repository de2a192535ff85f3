"""The ``spieltisch`` command: one entry point, one subcommand per job.

The subcommands (``sim``, ``run``, ``selftest``, ``history``, ``config check``, ``rules``,
``voice render``)
are an interface others script against, so their names and options stay stable.

Bad input never shows a traceback: argparse errors and every ``ValueError``/``OSError``
from below become one line on stderr and exit code 2, cut to about 300 characters
however long the input it quotes. An unexpected exception (a bug) is one line too,
and exit code 1.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from controller import config, i18n, selftest
from controller.backup import cli as backup_cli
from controller.cli import appliance as appliance_cli
from controller.cli import history as history_cli
from controller.cli import rules as rules_cli
from controller.cli import run as run_cli
from controller.cli import run_args
from controller.cli.argparse_words import speak_argparse
from controller.i18n import _
from controller.input_checks import clip
from controller.release import cli as update_cli
from controller.voice import cli as voice_cli


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one line and exit code 2."""

    def error(self, message: str) -> NoReturn:
        line = _("{prog}: error: {message} (try --help)").format(prog=self.prog, message=message)
        self.exit(2, line + "\n")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="spieltisch",
        description="Dice board games on an LED matrix with arcade buttons.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    rules_cli.add_parser(sub)
    run_args.add_parsers(sub)
    selftest.add_parser(sub)
    config.add_parser(sub)
    history_cli.add_parser(sub)
    appliance_cli.add_parser(sub)
    voice_cli.add_parser(sub)
    update_cli.add_parser(sub)
    backup_cli.add_parser(sub)
    return parser


HANDLERS: dict[str, Callable[[argparse.Namespace], int]] = {
    "rules": rules_cli.run,
    "sim": run_cli.run_sim,
    "run": run_cli.run_appliance,
    "selftest": selftest.run,
    "config": config.run,
    "history": history_cli.run,
    "appliance": appliance_cli.run,
    "voice": voice_cli.run,
    "update": update_cli.run,
    "backup": backup_cli.run,
}


def main(argv: Sequence[str] | None = None) -> int:
    # The locale's language until a command chooses the table's (``sim --lang``, the
    # config's): usage errors and a failing command's one line are read by the same
    # family as the panel.
    i18n.use(i18n.language_from_environment(os.environ))
    speak_argparse()
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return HANDLERS[args.command](args)
    except BrokenPipeError:
        return 0
    except (ValueError, OSError) as exc:
        message = clip(str(exc)) if str(exc) else type(exc).__name__
        sys.stderr.write(_("spieltisch: error: {message}").format(message=message) + "\n")
        return 2
    except RecursionError:
        message = _("the input is nested too deeply")
        sys.stderr.write(_("spieltisch: error: {message}").format(message=message) + "\n")
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        # A bug, not bad input: still one line (the customer's rule: no traceback on
        # screen), naming the exception so that it can be reported and found.
        sys.stderr.write(
            f"spieltisch: internal error: {type(exc).__name__}: {clip(str(exc))} "
            "(please report this)\n"
        )
        return 1


if __name__ == "__main__":
    sys.exit(main())
