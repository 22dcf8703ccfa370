# Writes a program whose constants are large arrays of f32, f16 and bf16
# (nested: 32x64, 64x64, 64x64 elements, 4 KiB and more each), every
# element distinct, and the arrays numpy expects from it.
import sys
import numpy as np

folder = sys.argv[1]
w32 = (np.arange(32 * 64, dtype=np.float32) * 0.25 - 100).reshape(32, 64)
w16 = (np.arange(64 * 64, dtype=np.float32) / 64 - 30).astype(np.float16).reshape(64, 64)
# bf16: the upper halves of f32 values that bf16 holds exactly (8
# significant bits), in an order that makes every row differ.
wb = ((np.arange(64 * 64) * 37 % 256 - 128) * 0.5).astype(np.float32).reshape(64, 64)
hexes = {
    "w32": w32.tobytes().hex(),
    "w16": w16.tobytes().hex(),
    "wb": (wb.view(np.uint32) >> 16).astype(np.uint16).tobytes().hex(),
}
program = f"""
func.func @weights(%x: tensor<32x64xf32>) -> tensor<32x64xf32> {{
  %w32 = arith.constant dense<"0x{hexes['w32']}"> : tensor<32x64xf32>
  %w16 = arith.constant dense<"0x{hexes['w16']}"> : tensor<64x64xf16>
  %wb = arith.constant dense<"0x{hexes['wb']}"> : tensor<64x64xbf16>
  %a = tensor.extract_slice %w16[0, 0] [32, 64] [2, 1] : tensor<64x64xf16> to tensor<32x64xf16>
  %b = tensor.extract_slice %wb[32, 0] [32, 64] [1, 1] : tensor<64x64xbf16> to tensor<32x64xbf16>
  %a32 = arith.extf %a : tensor<32x64xf16> to tensor<32x64xf32>
  %b32 = arith.extf %b : tensor<32x64xbf16> to tensor<32x64xf32>
  %s0 = arith.addf %x, %w32 : tensor<32x64xf32>
  %s1 = arith.addf %s0, %a32 : tensor<32x64xf32>
  %s2 = arith.addf %s1, %b32 : tensor<32x64xf32>
  return %s2 : tensor<32x64xf32>
}}
"""
open(f"{folder}/weights.mlir", "w").write(program)
x = np.linspace(-1, 1, 32 * 64, dtype=np.float32).reshape(32, 64)
np.save(f"{folder}/x.npy", x)
expected = x + w32 + w16[0::2].astype(np.float32) + wb[32:]
np.save(f"{folder}/expected.npy", expected)
