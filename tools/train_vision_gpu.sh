#!/usr/bin/env bash
# Make the varied training data and fit the networks on a borrowed machine with many cores and
# a GPU, in one time-boxed run (the project's device check); see docs/vision.md.
#
#   bash tools/train_vision_gpu.sh OUT_DIR
#
# Needs, beside the repository: .devcache/decks (rendered gnome decks: CRIB_PI_CACHE),
# .devcache/cards (the deck names: CRIB_PI_DECK_DIR) and .devcache/fonts (CRIB_PI_FONT_DIR),
# and a python3 with numpy, OpenCV, Pillow, torch and onnx. Settings from the environment:
# PROCS (data processes, default: every core), DATA_SECONDS (each process's scene budget),
# EPOCHS (shipped networks), FOLD_EPOCHS (leave-out networks), PARALLEL (fits at once),
# DEVICE (cuda or cpu), FAMILIES (the families held out in turn).
set -u
out="${1:?usage: train_vision_gpu.sh OUT_DIR}"
mkdir -p "$out" build/gpu
export PYTHONPATH="$PWD" CRIB_PI_CACHE="$PWD/.devcache" CRIB_PI_DECK_DIR="$PWD/.devcache/cards"
export CRIB_PI_FONT_DIR="$PWD/.devcache/fonts" OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
py="${PYTHON:-python3}"
procs="${PROCS:-$(nproc)}"
families="${FAMILIES:-anglo gnomangelo neoclassical french german russian italian modern}"
start=$(date +%s)
stamp() { echo "[$(( $(date +%s) - start ))s] $*"; }

stamp "data: $procs processes, ${DATA_SECONDS:-180}s each"
for i in $(seq 1 "$procs"); do
  "$py" tools/train_vision.py data --variety --scenes 100000 --seconds "${DATA_SECONDS:-180}" \
    --seed $((100 + i)) --out "build/gpu/v$((100 + i)).npz" > "build/gpu/data$i.log" 2>&1 &
done
wait
tail -n 2 build/gpu/data1.log
data=$(ls build/gpu/v*.npz)
stamp "data done: $(echo "$data" | wc -w) files"

jobs=()
jobs+=("--seed 1 --epochs ${EPOCHS:-10} --out $out/colour1.onnx")
jobs+=("--grey --seed 1 --epochs ${EPOCHS:-10} --out $out/grey.onnx")
jobs+=("--seed 2 --epochs ${EPOCHS:-10} --out $out/colour2.onnx")
for f in $families; do
  jobs+=("--leave-out $f --seed 1 --epochs ${FOLD_EPOCHS:-6} --out $out/colour-no-$f.onnx")
  jobs+=("--leave-out $f --grey --seed 1 --epochs ${FOLD_EPOCHS:-6} --out $out/grey-no-$f.onnx")
done
printf '%s\n' "${jobs[@]}" | xargs -P "${PARALLEL:-6}" -I{} sh -c \
  "$py tools/train_vision.py fit --device ${DEVICE:-cuda} --data $(echo $data) {} \
   > \"build/gpu/fit-\$(echo '{}' | tr -c 'a-z0-9' '_' | cut -c1-60).log\" 2>&1"
stamp "fits done: $(ls "$out"/*.onnx 2>/dev/null | wc -l) networks"
for f in build/gpu/fit-*.log; do echo "== $f"; tail -n 3 "$f"; done
