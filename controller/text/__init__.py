"""The table in plain text: boards for the ``rules`` and ``history`` commands and the
``sim --display text`` game, painted with ANSI colours when the output is a terminal."""
