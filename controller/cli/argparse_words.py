"""The command line's own words in the players' language: argparse's messages.

Why here: argparse writes its usage errors ("invalid choice: …", "the following
arguments are required: …") through :func:`gettext.gettext`, in the process's text
domain, and Python ships no German for them; so a German family read "spieltisch:
Fehler:" followed by English. :func:`speak_argparse` makes the table's catalog that
domain, and the texts below (argparse's own, character for character, as Python 3.11
writes them) are marked so that the catalog carries their German. The language is the
locale's, as gettext itself reads it: argparse speaks before any option is read.
"""

from __future__ import annotations

import gettext

from controller.i18n import DOMAIN, LOCALE_DIR, N_, ngettext

ARGPARSE_TEXTS = (
    N_("usage: "),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
    N_("can't open '%(filename)s': %(error)s"),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("unrecognized arguments: %s"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unexpected option string: %s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
)


def _plural_marks() -> None:
    """Marks argparse's one plural text for the catalog (never called)."""
    ngettext("expected %s argument", "expected %s arguments", 1)


def speak_argparse() -> None:
    """argparse's messages from now on in the locale's language, from the table's
    catalog (English, the source, where the locale asks for another language)."""
    gettext.bindtextdomain(DOMAIN, str(LOCALE_DIR))
    gettext.textdomain(DOMAIN)
