#!/usr/bin/env bash
# The fonts the drawn training decks are printed in (tools/train_vision.py data --variety),
# from Debian's packages, unpacked into a folder (not installed): the families docs/vision.md
# lists. None of them is among tools/unseen_fonts.sh's, which measure decks no network saw.
#
#   bash tools/training_fonts.sh [DIR]      (default .devcache/fonts, as train_vision_gpu.sh wants)
#   CRIB_PI_FONT_DIR=.devcache/fonts python tools/train_vision.py data --variety ...
set -euo pipefail
out="$(realpath -m "${1:-.devcache/fonts}")"
# Every upright face of these is kept (synth.drawn.SKIP_FONT drops italics, mono and symbols).
whole=(fonts-dejavu-core fonts-dejavu-extra fonts-liberation fonts-liberation2 fonts-freefont-ttf
  fonts-urw-base35 fonts-crosextra-carlito fonts-crosextra-caladea fonts-linuxlibertine fonts-lato
  fonts-open-sans fonts-roboto-unhinted)
# Of these, only the regular and bold faces named below (the packages hold many weights or
# scripts, which would outweigh the rest).
some=(fonts-noto-core fonts-cabin fonts-jura fonts-play fonts-karla fonts-dosis fonts-mplus
  fonts-yanone-kaffeesatz fonts-paratype fonts-stix fonts-cmu fonts-lmodern fonts-tlwg-kinnari-ttf)
keep='^(NotoS(ans|erif)-(Regular|Bold)\.ttf|Cabin-(Regular|Bold)\.otf|Jura-(Regular|Bold)\.otf'
keep+='|Play-(Regular|Bold)\.ttf|Karla-(Regular|Bold)\.otf|Dosis-(Book|Bold)\.otf'
keep+='|Mplus1-(Regular|Bold)\.otf|YanoneKaffeesatz-(Regular|Bold)\.otf|PT[SF][57]5F\.ttf'
keep+='|STIX-(Regular|Bold)\.otf|cmun(rm|bx|ss|sx)\.ttf|lm(roman|sans)10-(regular|bold)\.otf'
keep+='|Kinnari(-Bold)?\.ttf)$'
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && apt-get download "${whole[@]}" "${some[@]}" >/dev/null)
mkdir -p "$out"
find "$out" -maxdepth 1 -type f \( -name '*.ttf' -o -name '*.otf' \) -delete  # a rerun: only fonts go
for p in "${whole[@]}"; do dpkg -x "$tmp/$p"_*.deb "$tmp/whole"; done
for p in "${some[@]}"; do dpkg -x "$tmp/$p"_*.deb "$tmp/some"; done
find "$tmp/whole" \( -name '*.ttf' -o -name '*.otf' \) -exec cp {} "$out" \;
find "$tmp/some" \( -name '*.ttf' -o -name '*.otf' \) -print0 \
  | while IFS= read -r -d '' f; do
    if [[ "$(basename "$f")" =~ $keep ]]; then cp "$f" "$out"; fi
  done
echo "$(find "$out" -maxdepth 1 -type f \( -name '*.ttf' -o -name '*.otf' \) | wc -l) font files in $out"
