"""Logical RGB frames onto a physical WS2812 chain; pure, no ``machine``.

The host sends pixels row-major from the top-left corner and knows nothing about how
the strip snakes through the panel; that wiring is a property of the panel, so it is
mapped here, once, into an index table. Brightness and a current budget are applied
through one 256-entry lookup table, so the per-frame work is one table lookup per
byte. The power limit lives in the firmware on purpose: it protects the supply even if
a host misbehaves. MicroPython-compatible: no dataclasses, no typing.
"""

# A WS2812 channel at full drive draws about 20 mA (a white pixel ~60 mA).
MA_PER_CHANNEL = 20


def led_index_map(
    width: int,
    height: int,
    serpentine: bool = True,
    vertical: bool = False,
    flip_x: bool = False,
    flip_y: bool = False,
) -> list:
    """``table[y * width + x]`` is the chain position of logical pixel (x, y).

    ``vertical``: the strip runs along columns instead of rows. ``serpentine``: every
    other row (column) runs backwards. ``flip_x``/``flip_y``: the chain starts at the
    right/bottom edge instead of the top-left corner.
    """
    table = [0] * (width * height)
    for y in range(height):
        for x in range(width):
            px = width - 1 - x if flip_x else x
            py = height - 1 - y if flip_y else y
            if vertical:
                line, pos, run = px, py, height
            else:
                line, pos, run = py, px, width
            if serpentine and line % 2 == 1:
                pos = run - 1 - pos
            table[y * width + x] = line * run + pos
    return table


class Panel:
    """Writes frames into a ``neopixel.NeoPixel``-like strip (``buf``, ``ORDER``, ``write``).

    ``max_ma`` is the budget for the LEDs' current; a frame that would draw more is
    dimmed as a whole (0 disables the limit).
    """

    def __init__(
        self,
        strip,
        width: int,
        height: int,
        serpentine: bool = True,
        vertical: bool = False,
        flip_x: bool = False,
        flip_y: bool = False,
        max_ma: int = 0,
    ) -> None:
        self.strip = strip
        self.width = width
        self.height = height
        self.table = led_index_map(width, height, serpentine, vertical, flip_x, flip_y)
        self.bpp = len(strip.buf) // (width * height)
        order = strip.ORDER
        self.offsets = (order[0], order[1], order[2])
        self.max_ma = max_ma
        self.brightness = 255
        self.scale = -1  # level of the current LUT in 1/256ths, after the power limit
        self.lut = bytearray(256)
        self._build_lut(256)

    def _build_lut(self, level: int) -> None:
        if level == self.scale:
            return
        self.scale = level
        for v in range(256):
            self.lut[v] = (v * level) >> 8

    def set_brightness(self, level: int) -> None:
        """0..255; takes effect with the next frame."""
        self.brightness = max(0, min(255, level))

    def level_for(self, frame) -> int:
        """The LUT level for ``frame``: brightness, then dimmed to the current budget."""
        level = self.brightness * 256 // 255  # 255 -> 256: the identity table
        if self.max_ma > 0 and level:
            total = sum(frame)  # channel sum at full drive
            drawn = total * MA_PER_CHANNEL * level // (255 * 256)
            if drawn > self.max_ma:
                level = level * self.max_ma // drawn
        return level

    def show(self, frame) -> None:
        """Display a row-major RGB ``frame`` of ``width * height * 3`` bytes."""
        self._build_lut(self.level_for(frame))
        lut = self.lut
        buf = self.strip.buf
        bpp = self.bpp
        o_r, o_g, o_b = self.offsets
        table = self.table
        k = 0
        for p in range(len(table)):
            i = table[p] * bpp
            buf[i + o_r] = lut[frame[k]]
            buf[i + o_g] = lut[frame[k + 1]]
            buf[i + o_b] = lut[frame[k + 2]]
            k += 3
        self.strip.write()
