# Sourced by scripts/run and scripts/test: make .venv once and install crib-pi into it.
# CRIB_PI_EXTRAS picks the extras ("dev" for tests). A venv made on a Pi should see the
# apt-installed picamera2, hence --system-site-packages there.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"
extras="${CRIB_PI_EXTRAS:-dev}"
stamp="$venv/.installed-$extras-$(sha1sum "$root/pyproject.toml" | cut -c1-12)"
if [ ! -x "$venv/bin/python" ]; then
  flags=()
  if [ -e /proc/device-tree/model ] && grep -qi "raspberry pi" /proc/device-tree/model; then
    flags+=(--system-site-packages)
  fi
  python3 -m venv "${flags[@]}" "$venv"
fi
if [ ! -e "$stamp" ]; then
  "$venv/bin/python" -m pip install --quiet --upgrade pip
  "$venv/bin/python" -m pip install --quiet -e "$root[$extras]"
  touch "$stamp"
fi
export PATH="$venv/bin:$PATH"
