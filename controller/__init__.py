"""The appliance: command line, event loop, state machine, session, views, persistence."""
