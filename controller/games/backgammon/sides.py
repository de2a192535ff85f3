"""The colours Backgammon's sides are drawn in, stated once for the view, the table's
generic pictures and the words."""

from __future__ import annotations

SIDE_INKS = {"white": "orange", "black": "sky"}
"""The palette colours the sides are drawn in: white as orange (a white LED would read
as the preview's target), black as sky blue. Players call the sky blue "blue"."""

SIDE_WORDS = {**SIDE_INKS, "black": "blue"}
"""The colour words the sides are named by (``Presentation.side_colours``)."""
