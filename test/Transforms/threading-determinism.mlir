// The pass manager runs function passes on several threads; its output
// must not depend on that. Each program below (a CNN, an LSTM loop, a
// transformer block, buffers, elementwise chains in many functions) is
// converted and lowered with threading on (the default) and off, in f16 and
// bf16, and the two texts must be identical.
//
// RUN: amp-opt %S/../Integration/mp-cnn.mlir -p 'builtin.module(mixed-precision{precision=f16},amp-fold-casts,amp-lower-to-llvm)' -o %t.mp-cnn.f16.on
// RUN: amp-opt %S/../Integration/mp-cnn.mlir -p 'builtin.module(mixed-precision{precision=f16},amp-fold-casts,amp-lower-to-llvm)' --mlir-disable-threading -o %t.mp-cnn.f16.off
// RUN: cmp %t.mp-cnn.f16.on %t.mp-cnn.f16.off
// RUN: amp-opt %S/../Integration/mp-lstm.mlir -p 'builtin.module(mixed-precision{precision=f16},amp-fold-casts,amp-lower-to-llvm)' -o %t.mp-lstm.f16.on
// RUN: amp-opt %S/../Integration/mp-lstm.mlir -p 'builtin.module(mixed-precision{precision=f16},amp-fold-casts,amp-lower-to-llvm)' --mlir-disable-threading -o %t.mp-lstm.f16.off
// RUN: cmp %t.mp-lstm.f16.on %t.mp-lstm.f16.off
// RUN: amp-opt %S/../Integration/mp-transformer.mlir -p 'builtin.module(mixed-precision{precision=f16},amp-fold-casts,amp-lower-to-llvm)' -o %t.mp-transformer.f16.on
// RUN: amp-opt %S/../Integration/mp-transformer.mlir -p 'builtin.module(mixed-precision{precision=f16},amp-fold-casts,amp-lower-to-llvm)' --mlir-disable-threading -o %t.mp-transformer.f16.off
// RUN: cmp %t.mp-transformer.f16.on %t.mp-transformer.f16.off
// RUN: amp-opt %S/../Integration/mp-buffers.mlir -p 'builtin.module(mixed-precision{precision=f16},amp-fold-casts,amp-lower-to-llvm)' -o %t.mp-buffers.f16.on
// RUN: amp-opt %S/../Integration/mp-buffers.mlir -p 'builtin.module(mixed-precision{precision=f16},amp-fold-casts,amp-lower-to-llvm)' --mlir-disable-threading -o %t.mp-buffers.f16.off
// RUN: cmp %t.mp-buffers.f16.on %t.mp-buffers.f16.off
// RUN: amp-opt %S/../Integration/elementwise.mlir -p 'builtin.module(mixed-precision{precision=f16},amp-fold-casts,amp-lower-to-llvm)' -o %t.elementwise.f16.on
// RUN: amp-opt %S/../Integration/elementwise.mlir -p 'builtin.module(mixed-precision{precision=f16},amp-fold-casts,amp-lower-to-llvm)' --mlir-disable-threading -o %t.elementwise.f16.off
// RUN: cmp %t.elementwise.f16.on %t.elementwise.f16.off
// RUN: amp-opt %S/../Integration/mp-cnn.mlir -p 'builtin.module(mixed-precision{precision=bf16},amp-fold-casts,amp-lower-to-llvm)' -o %t.mp-cnn.bf16.on
// RUN: amp-opt %S/../Integration/mp-cnn.mlir -p 'builtin.module(mixed-precision{precision=bf16},amp-fold-casts,amp-lower-to-llvm)' --mlir-disable-threading -o %t.mp-cnn.bf16.off
// RUN: cmp %t.mp-cnn.bf16.on %t.mp-cnn.bf16.off
// RUN: amp-opt %S/../Integration/mp-lstm.mlir -p 'builtin.module(mixed-precision{precision=bf16},amp-fold-casts,amp-lower-to-llvm)' -o %t.mp-lstm.bf16.on
// RUN: amp-opt %S/../Integration/mp-lstm.mlir -p 'builtin.module(mixed-precision{precision=bf16},amp-fold-casts,amp-lower-to-llvm)' --mlir-disable-threading -o %t.mp-lstm.bf16.off
// RUN: cmp %t.mp-lstm.bf16.on %t.mp-lstm.bf16.off
// RUN: amp-opt %S/../Integration/mp-transformer.mlir -p 'builtin.module(mixed-precision{precision=bf16},amp-fold-casts,amp-lower-to-llvm)' -o %t.mp-transformer.bf16.on
// RUN: amp-opt %S/../Integration/mp-transformer.mlir -p 'builtin.module(mixed-precision{precision=bf16},amp-fold-casts,amp-lower-to-llvm)' --mlir-disable-threading -o %t.mp-transformer.bf16.off
// RUN: cmp %t.mp-transformer.bf16.on %t.mp-transformer.bf16.off
// RUN: amp-opt %S/../Integration/mp-buffers.mlir -p 'builtin.module(mixed-precision{precision=bf16},amp-fold-casts,amp-lower-to-llvm)' -o %t.mp-buffers.bf16.on
// RUN: amp-opt %S/../Integration/mp-buffers.mlir -p 'builtin.module(mixed-precision{precision=bf16},amp-fold-casts,amp-lower-to-llvm)' --mlir-disable-threading -o %t.mp-buffers.bf16.off
// RUN: cmp %t.mp-buffers.bf16.on %t.mp-buffers.bf16.off
// RUN: amp-opt %S/../Integration/elementwise.mlir -p 'builtin.module(mixed-precision{precision=bf16},amp-fold-casts,amp-lower-to-llvm)' -o %t.elementwise.bf16.on
// RUN: amp-opt %S/../Integration/elementwise.mlir -p 'builtin.module(mixed-precision{precision=bf16},amp-fold-casts,amp-lower-to-llvm)' --mlir-disable-threading -o %t.elementwise.bf16.off
// RUN: cmp %t.elementwise.bf16.on %t.elementwise.bf16.off
