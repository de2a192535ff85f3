"""Pixel order on the wire: which LED of the chain shows which pixel of the picture.

Views draw row by row, top-left first. A WS2812 panel is one long chain whose order
depends on how it was built:

* ``row``: chain order is row order (most emulators, APA102 strips laid in rows).
* ``serpentine``: rows snake; row 0 runs left to right, row 1 right to left, ... The
  common flexible 8×8/16×16 WS2812 panel. If your panel starts in another corner, set
  ``display.rotation`` so the picture comes out upright.
* ``tiled``: several serpentine panels of ``tile_width × tile_height`` (e.g. four
  16×16 making 32×32), chained in reading order: top-left, top-right, bottom-left,
  bottom-right, each mounted the same way up with its data input top-left.

The result is luma's ``mapping`` list: ``mapping[i]`` is the chain position of the
``i``-th pixel in row order (luma ws2812/apa102 take it as they are).
"""

from __future__ import annotations


class PixelOrderError(ValueError):
    """A mapping that cannot fit the panel size; the message names both."""


def serpentine_index(x: int, y: int, width: int) -> int:
    """Chain position of pixel (x, y) on one serpentine panel ``width`` wide."""
    return y * width + (x if y % 2 == 0 else width - 1 - x)


def build_mapping(
    mapping: str, width: int, height: int, tile_width: int = 16, tile_height: int = 16
) -> list[int]:
    """The chain position of every pixel, in row order (a permutation of range(w*h))."""
    if mapping == "row":
        return list(range(width * height))
    if mapping == "serpentine":
        return [serpentine_index(x, y, width) for y in range(height) for x in range(width)]
    if mapping == "tiled":
        if tile_width <= 0 or tile_height <= 0 or width % tile_width or height % tile_height:
            raise PixelOrderError(
                f"tiled mapping: {width}x{height} is not a whole number of "
                f"{tile_width}x{tile_height} tiles"
            )
        tiles_across = width // tile_width
        per_tile = tile_width * tile_height
        out: list[int] = []
        for y in range(height):
            for x in range(width):
                tile = (y // tile_height) * tiles_across + x // tile_width
                local = serpentine_index(x % tile_width, y % tile_height, tile_width)
                out.append(tile * per_tile + local)
        return out
    raise PixelOrderError(f"unknown mapping {mapping!r}; allowed: row, serpentine, tiled")
