#!/usr/bin/env bash
# Re-render hardware/wiring.svg from hardware/wiring.dot. Needs Graphviz's dot
# (Debian / Raspberry Pi OS: sudo apt-get install graphviz). The SVG carries the sha256 of the
# .dot it was made from, so tests/test_hardware.py can tell a stale render without dot.
set -euo pipefail
cd "$(dirname "$0")"
if ! command -v dot >/dev/null; then
    echo "render.sh: Graphviz's dot is missing (apt-get install graphviz)" >&2
    exit 1
fi
hash=$(sha256sum wiring.dot | cut -d' ' -f1)
dot -Tsvg wiring.dot | sed "1a <!-- source: wiring.dot sha256 ${hash} -->" > wiring.svg.tmp
mv wiring.svg.tmp wiring.svg
echo "wrote hardware/wiring.svg ($(dot -V 2>&1))"
