#!/usr/bin/env bash
# Fonts no recognition network was trained on, for drawing held-out decks
# (benchmarks/bench_held_out.py, bench_learn_deck.py): eleven families from Debian's packages,
# unpacked into a folder (not installed). The training drew its decks in the fonts that
# docs/vision.md lists (DejaVu, Liberation, FreeFont, URW base35, Carlito, Caladea, Linux
# Libertine, Lato, Open Sans, Roboto); none of these is among them.
#
#   bash tools/unseen_fonts.sh [DIR]      (default build/unseen-fonts)
#   CRIB_PI_FONT_DIR=build/unseen-fonts python benchmarks/bench_held_out.py --drawn 24
set -euo pipefail
out="$(realpath -m "${1:-build/unseen-fonts}")"
packages=(fonts-cantarell fonts-inter fonts-comfortaa fonts-quicksand fonts-oxygen
  fonts-sil-gentium fonts-sil-charis fonts-sil-andika fonts-go fonts-league-spartan)
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && apt-get download "${packages[@]}")
mkdir -p "$out"
find "$out" -maxdepth 1 -type f \( -name '*.ttf' -o -name '*.otf' \) -delete  # a rerun: only fonts go
for deb in "$tmp"/*.deb; do dpkg -x "$deb" "$tmp/x"; done
find "$tmp/x" \( -name '*.ttf' -o -name '*.otf' \) -exec cp {} "$out" \;
# One upright regular and bold of the families shipped in many weights; no italics.
find "$out" -name 'Inter*' ! -name 'Inter-Regular.otf' ! -name 'Inter-Bold.otf' -delete
find "$out" -name 'LeagueSpartan*' ! -name 'LeagueSpartan-Regular.otf' \
  ! -name 'LeagueSpartan-Bold.otf' -delete
find "$out" -name 'Gentium*-I.ttf' -delete
echo "$(find "$out" -maxdepth 1 -type f \( -name '*.ttf' -o -name '*.otf' \) | wc -l) font files in $out"
