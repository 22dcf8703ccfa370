// RUN: amp-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{accumulator type must be f16, bf16, f32 or f64, got 'f8E4M3FN'}}
func.func @f8_accumulator() attributes {amp.scope = #amp.precision<accumulate = f8E4M3FN>} {
  return
}

// -----

// expected-error @+1 {{'accumulate' must be a floating-point type, got 'i32'}}
func.func @integer_accumulator() attributes {amp.scope = #amp.precision<accumulate = i32>} {
  return
}

// -----

// expected-error @+1 {{'low' must be a floating-point type, got 'index'}}
func.func @index_low() attributes {amp.scope = #amp.precision<low = index>} {
  return
}

// -----

// expected-error @+1 {{low-precision type must be f16 or bf16, got 'f32'}}
func.func @f32_low() attributes {amp.scope = #amp.precision<low = f32>} {
  return
}

// -----

// expected-error @+1 {{low-precision type must be f16 or bf16, got 'f8E5M2'}}
func.func @f8_low() attributes {amp.scope = #amp.precision<low = f8E5M2>} {
  return
}

// -----

// expected-error @+1 {{accumulator type 'f16' cannot hold values of the low type 'bf16'; use 'bf16' or a wider type}}
func.func @narrow_accumulator() attributes {amp.scope = #amp.precision<low = bf16, accumulate = f16>} {
  return
}

// -----

// expected-error @+1 {{unknown policy 'sometimes'; expected 'allow', 'follow' or 'never'}}
func.func @bad_policy() attributes {amp.scope = #amp.precision<policy = sometimes>} {
  return
}

// -----

// expected-error @+1 {{unknown key 'precision'; expected 'policy', 'low' or 'accumulate'}}
func.func @bad_key() attributes {amp.scope = #amp.precision<precision = f16>} {
  return
}

// -----

// expected-error @+1 {{'low' is given twice}}
func.func @twice() attributes {amp.scope = #amp.precision<low = f16, low = bf16>} {
  return
}

// -----

// expected-error @+1 {{a precision attribute must state at least one of 'policy', 'low' or 'accumulate'}}
func.func @empty() attributes {amp.scope = #amp.precision<>} {
  return
}

// -----

func.func @scope_without_regions(%a: f32) -> f32 {
  // expected-error @+1 {{'amp.scope' applies to nested ops and needs an op with regions; use 'amp.precision' for a single op}}
  %0 = arith.addf %a, %a {amp.scope = #amp.precision<policy = never>} : f32
  return %0 : f32
}

// -----

func.func @wrong_kind(%a: f32) -> f32 {
  // expected-error @+1 {{'amp.precision' must be an #amp.precision attribute, got "never"}}
  %0 = arith.addf %a, %a {amp.precision = "never"} : f32
  return %0 : f32
}

// -----

func.func @unknown_attr(%a: f32) -> f32 {
  // expected-error @+1 {{unknown amp attribute 'amp.policy'; expected 'amp.precision' or 'amp.scope'}}
  %0 = arith.addf %a, %a {amp.policy = #amp.policy<never>} : f32
  return %0 : f32
}

// -----

// expected-error @+1 {{'amp.range' must be an array of two floats [lo, hi], got [1.000000e+00]}}
func.func @range_one_bound(%x: tensor<4xf32> {amp.range = [1.0]}) {
  return
}

// -----

// expected-error @+1 {{'amp.range' of argument 0 needs lo <= hi, got [2.000000e+00, 1.000000e+00]}}
func.func @range_reversed(%x: tensor<4xf32> {amp.range = [2.0, 1.0]}) {
  return
}

// -----

// expected-error @+1 {{'amp.range' on argument 0, which holds no floats}}
func.func @range_of_integers(%x: tensor<4xi32> {amp.range = [0.0, 1.0]}) {
  return
}

// -----

// expected-error @+1 {{unknown amp argument attribute 'amp.bounds'; expected 'amp.range'}}
func.func @unknown_argument_attribute(%x: f32 {amp.bounds = [0.0, 1.0]}) {
  return
}
