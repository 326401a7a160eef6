# Sourced by scripts/run and scripts/test: make .venv once and install crib-pi into it.
# CRIB_PI_EXTRAS picks the extras ("dev" for tests, "devices" on a Pi). CRIB_PI_VENV and
# CRIB_PI_CONSTRAINTS make another environment on a pinned set (CI runs the tests on the Pi's).
#
# On a Raspberry Pi (the model is read from CRIB_PI_MODEL_FILE, default
# /proc/device-tree/model) the venv sees apt's packages (--system-site-packages) and pip keeps
# them: numpy stays apt's python3-numpy, which picamera2's compiled parts were built against
# (a pip numpy 2 over apt's 1.24 breaks "import picamera2"), OpenCV is held to 4.11 while that
# numpy is 1.x (4.12 and later need numpy 2), spidev and gpiozero come from apt, and only the
# board's LED driver is installed: rpi_ws281x on a Pi 4 and earlier, pi5neo on a Pi 5.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${CRIB_PI_VENV:-$root/.venv}"
extras="${CRIB_PI_EXTRAS:-dev}"
constraints="${CRIB_PI_CONSTRAINTS:-}"
model_file="${CRIB_PI_MODEL_FILE:-/proc/device-tree/model}"
pi_model=""
if [ -r "$model_file" ] && grep -qai "raspberry pi" "$model_file"; then
  pi_model="$(tr -d '\0' <"$model_file")"
fi

_crib_pi_stop() { # one line naming what to do, exit status 2, before pip can fail
  echo "crib-pi install: $*" >&2
  exit 2
}

if [ -n "$pi_model" ] && [[ ",$extras," == *",devices,"* ]]; then
  case "$pi_model" in
    *"Raspberry Pi 5"* | *"Raspberry Pi 500"* | *"Compute Module 5"*) extras="$extras,pi5neo" ;;
    *) extras="$extras,ws281x" ;;
  esac
fi
stamp="$venv/.installed-$(echo "$extras" | tr ',' '-')-$(cat "$root/pyproject.toml" \
  ${constraints:+"$constraints"} | sha1sum | cut -c1-12)"
if [ ! -e "$stamp" ]; then
  pip_args=()
  if [ -n "$pi_model" ]; then
    # apt's numpy, or pip would choose one (and picamera2 from apt could not use it).
    apt_numpy="$(python3 -s -c 'import numpy; print(numpy.__version__)' 2>/dev/null || true)"
    [ -n "$apt_numpy" ] || _crib_pi_stop "on a Pi, install numpy from apt first:" \
      "sudo apt install python3-numpy"
    if [[ ",$extras," == *",pi5neo,"* ]] && ! python3 -s -c 'import spidev' 2>/dev/null; then
      _crib_pi_stop "pi5neo needs spidev from apt (pip would compile it):" \
        "sudo apt install python3-spidev"
    fi
    if [[ ",$extras," == *",ws281x,"* ]]; then
      include="$(python3 -c 'import sysconfig; print(sysconfig.get_path("include"))')"
      if ! { [ -x "$venv/bin/python" ] && "$venv/bin/python" -c 'import rpi_ws281x' 2>/dev/null; } \
        && { [ ! -e "$include/Python.h" ] || ! command -v gcc >/dev/null; }; then
        _crib_pi_stop "rpi_ws281x (the LED driver of a $pi_model) has no wheel for the Pi and" \
          "is compiled by pip, which needs: sudo apt install python3-dev build-essential"
      fi
    fi
    mkdir -p "$venv"
    constraints_file="$venv/pi-constraints.txt"
    echo "numpy==$apt_numpy" >"$constraints_file"
    if [[ "$apt_numpy" == 1.* ]]; then
      grep '^opencv-python-headless' "$root/scripts/pi-constraints.txt" >>"$constraints_file"
    fi
    pip_args+=(--constraint "$constraints_file")
  fi
  if [ -n "$constraints" ]; then
    pip_args+=(--constraint "$constraints")
  fi
  flags=()
  if [ -n "$pi_model" ]; then
    flags+=(--system-site-packages)
  fi
  if [ -n "${CRIB_PI_INSTALL_DRY_RUN:-}" ]; then # for tests: say what would be run
    echo "python3 -m venv ${flags[*]} $venv"
    echo "pip install ${pip_args[*]} -e $root[$extras]"
    exit 0
  fi
  if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "${flags[@]}" "$venv"
  fi
  "$venv/bin/python" -m pip install --quiet --upgrade pip
  "$venv/bin/python" -m pip install --quiet "${pip_args[@]}" -e "$root[$extras]"
  touch "$stamp"
fi
# The translations: each .po compiled to the .mo gettext reads (the editable install's build
# does it too; this catches a .po edited since).
"$venv/bin/python" "$root/crib_pi/catalogue.py" >/dev/null
export PATH="$venv/bin:$PATH"
