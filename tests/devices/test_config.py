"""Device settings are checked before use; unknown keys are rejected by name."""

from __future__ import annotations

from pathlib import Path

import pytest

from crib_pi.devices import DeviceConfig, choose_backend, load_config
from crib_pi.devices.errors import DeviceConfigError


def test_defaults_are_a_working_config() -> None:
    config = DeviceConfig.from_mapping({})
    assert config == DeviceConfig()
    assert config.buttons.spec("go").pin == 17
    assert config.leds.driver == "auto"


@pytest.mark.parametrize(
    ("data", "named"),
    [
        ({"leds": {"brightnes": 0.5}}, "devices.leds.brightnes"),
        ({"buttons": {"go": {"pins": 4}}}, "devices.buttons.go.pins"),
        ({"buttons": {"jump": {"pin": 4}}}, "devices.buttons.jump"),
        ({"screens": {}}, "devices.screens"),
        ({"leds": {"count": "many"}}, "devices.leds.count"),
        ({"leds": {"brightness": 2.0}}, "brightness"),
        ({"buttons": {"go": {"pin": 27}}}, "GPIO 27 is given to two buttons"),
        ({"buttons": {"go": {"pin": 10}}}, "GPIO 10 is both the LED data line"),
        ({"buttons": {"go": {"pin": 40}}}, "GPIO 40"),
        ({"backend": "laptop"}, "devices.backend"),
        ({"leds": {"colours": [[300, 0, 0]]}}, "colours"),
    ],
)
def test_bad_settings_name_the_key(data: dict[str, object], named: str) -> None:
    with pytest.raises(DeviceConfigError, match=named):
        DeviceConfig.from_mapping(data)


def test_a_toml_file_with_a_devices_table(tmp_path: Path) -> None:
    path = tmp_path / "crib-pi.toml"
    path.write_text(
        "[devices]\nbackend = 'mock'\n[devices.leds]\nserpentine = true\nrow_length = 30\n"
        "reversed_rows = [1]\n[devices.buttons.undo]\npin = 5\nkeys = ['z']\n"
    )
    config = load_config(path)
    assert config.backend == "mock"
    assert config.leds.serpentine and config.leds.reversed_rows == (1,)
    assert config.buttons.spec("undo").pin == 5
    assert config.buttons.spec("undo").keys == ("z",)
    assert config.buttons.spec("undo").repeat  # unchanged default


def test_config_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "devices.toml"
    path.write_text("[screen]\nsize = [720, 1280]\n")
    monkeypatch.setenv("CRIB_PI_CONFIG", str(path))
    assert load_config().screen.size == (720, 1280)


def test_the_backend_comes_from_the_argument_config_or_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CRIB_PI_DEVICES", "mock")
    assert choose_backend(DeviceConfig()) == "mock"
    assert choose_backend(DeviceConfig(backend="desktop")) == "desktop"
    assert choose_backend(DeviceConfig(backend="desktop"), "pi") == "pi"
    monkeypatch.setenv("CRIB_PI_DEVICES", "toaster")
    with pytest.raises(DeviceConfigError, match="CRIB_PI_DEVICES='toaster'"):
        choose_backend(DeviceConfig())


def test_importing_the_devices_package_imports_no_driver_library() -> None:
    import subprocess
    import sys

    code = (
        "import sys, crib_pi.devices, crib_pi.devices.factory; "
        "print(sorted(m for m in ('pygame', 'gpiozero', 'cv2', 'rpi_ws281x', 'pi5neo', "
        "'picamera2') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
