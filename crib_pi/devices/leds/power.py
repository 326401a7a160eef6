"""The software current limit and global brightness, applied to every frame before ``show``.

The estimate follows the WS2812 rule of thumb: each colour channel draws up to
``ma_per_channel`` mA at 255, in proportion to its value, plus an optional fixed
``idle_ma_per_led``. A frame over ``max_amps`` is scaled down as a whole (hue kept) until it
fits; the cap protects the supply and the wiring, not just the eyes.
"""

from __future__ import annotations

from dataclasses import dataclass

from crib_pi.devices.config import RGB, LedConfig


@dataclass(frozen=True, slots=True)
class PowerLimit:
    """Brightness (0..1) and the current budget of the strip."""

    max_amps: float = 2.0
    brightness: float = 1.0
    ma_per_channel: float = 20.0
    idle_ma_per_led: float = 0.0

    @classmethod
    def from_config(cls, config: LedConfig) -> PowerLimit:
        return cls(
            config.max_amps, config.brightness, config.ma_per_channel, config.idle_ma_per_led
        )

    def amps(self, frame: tuple[RGB, ...]) -> float:
        """Estimated current of ``frame`` as shown (after brightness), in amps."""
        channels = sum(r + g + b for r, g, b in frame)
        return (channels / 255 * self.ma_per_channel + len(frame) * self.idle_ma_per_led) / 1000

    def apply(self, frame: tuple[RGB, ...]) -> tuple[RGB, ...]:
        """``frame`` at the set brightness, scaled down further if it would draw too much."""
        level = self.brightness
        channels = sum(r + g + b for r, g, b in frame)
        budget_ma = self.max_amps * 1000 - len(frame) * self.idle_ma_per_led
        if channels:
            wanted_ma = channels * level / 255 * self.ma_per_channel
            if wanted_ma > budget_ma:
                level *= max(0.0, budget_ma) / wanted_ma
        if level >= 1.0:
            return frame
        return tuple((int(r * level), int(g * level), int(b * level)) for r, g, b in frame)
