"""Views: pure functions from a scene (state + UI cursor + time) to a ``PIL.Image``.

``render(scene, width, height, mode)`` draws any scene at a panel size and mode; the
dispatch from a scene to the view that draws it is :mod:`controller.views.dispatch`.
This package face only hands its names on.
"""

from controller.views.dispatch import (
    GENERIC,
    MODES,
    SLEEP_DIM,
    GameView,
    ViewLayoutError,
    cell_box,
    check,
    layouts,
    own_view,
    render,
    render_sleep,
    supports,
    view_of,
)

__all__ = [
    "GENERIC",
    "MODES",
    "SLEEP_DIM",
    "GameView",
    "ViewLayoutError",
    "cell_box",
    "check",
    "layouts",
    "own_view",
    "render",
    "render_sleep",
    "supports",
    "view_of",
]
