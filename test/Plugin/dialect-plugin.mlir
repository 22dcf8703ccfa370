// The stock mlir-opt parses, verifies and prints amp's attributes once the
// dialect plugin is loaded.
// RUN: mlir-opt --load-dialect-plugin=%amp_plugin %s --split-input-file --verify-diagnostics | FileCheck %s
// Without the plugin the stock tool does not know the dialect.
// RUN: not mlir-opt %s --split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOPLUGIN
// NOPLUGIN: attribute created with unregistered dialect

// CHECK-LABEL: func.func @scoped
// CHECK-SAME: amp.scope = #amp.precision<low = bf16, accumulate = f32>
// CHECK: math.exp %{{.+}} {amp.precision = #amp.precision<policy = never>}
func.func @scoped(%a: f32) -> f32 attributes {amp.scope = #amp.precision<low = bf16, accumulate = f32>} {
  %0 = math.exp %a {amp.precision = #amp.precision<policy = never>} : f32
  return %0 : f32
}

// -----

func.func @bad(%a: f32) -> f32 {
  // expected-error @+1 {{'amp.scope' applies to nested ops and needs an op with regions}}
  %0 = math.exp %a {amp.scope = #amp.precision<policy = never>} : f32
  return %0 : f32
}
