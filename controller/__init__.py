"""The appliance: command line, event loop, state machine, session, views, persistence."""

import sys

from controller import early_signals

# Before anything else is imported: a SIGTERM or SIGHUP while ``spieltisch run`` is
# still starting is kept for the table instead of ending it (see early_signals).
early_signals.hold(sys.argv)
