"""The power limiter: scale a frame down so the LEDs stay within the supply's budget.

Model (WS2812/APA102-class RGB LEDs at 5 V; documented in wiring.md):

    I = n_leds * idle_ma_per_led + brightness * sum(channel / 255) * ma_per_channel

with ``ma_per_channel`` about 20 mA for a fully lit red, green or blue die and an idle
draw of about 1 mA per LED (the driver IC, even when dark). A full-white 16×16 panel
is then 256 * 1 + 256 * 3 * 20 = 15.6 A, which is why it needs a limit: a 4 A supply
with a 4000 mA budget scales that frame to about a quarter.

When the estimate exceeds the budget, every channel is multiplied by the same factor so
colours keep their hue. Because channel values are integers the result is rounded
down, so the limited frame never exceeds the budget. A budget smaller than the idle
draw alone scales the frame to black.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageStat


@dataclass(frozen=True, slots=True)
class PowerModel:
    """How current is estimated; the defaults are the WS2812 figures above."""

    ma_per_channel: float = 20.0
    idle_ma_per_led: float = 1.0

    def estimate_ma(self, image: Image.Image, brightness: float = 1.0) -> float:
        """Estimated supply current in mA to show ``image`` (RGB) at ``brightness``."""
        rgb = image if image.mode == "RGB" else image.convert("RGB")
        leds = rgb.width * rgb.height
        channel_sum = sum(ImageStat.Stat(rgb).sum)  # sum of all R, G and B values
        return leds * self.idle_ma_per_led + brightness * channel_sum / 255 * self.ma_per_channel


def limit_frame(
    image: Image.Image, budget_ma: float, brightness: float = 1.0, model: PowerModel | None = None
) -> Image.Image:
    """``image`` itself if it fits ``budget_ma``, else a copy scaled down to fit.

    ``budget_ma <= 0`` means no limit. Works on RGB frames; other modes pass through.
    """
    if budget_ma <= 0 or image.mode != "RGB":
        return image
    model = model or PowerModel()
    total = model.estimate_ma(image, brightness)
    if total <= budget_ma:
        return image
    idle = image.width * image.height * model.idle_ma_per_led
    lit = total - idle
    factor = max(0.0, (budget_ma - idle) / lit) if lit > 0 else 0.0
    return image.point(lambda v: int(v * factor))
