func.func @scoped(%a: f32) -> f32 attributes {amp.scope = #amp.precision<low = bf16>} {
  %0 = math.exp %a {amp.precision = #amp.precision<policy = follow>} : f32
  return %0 : f32
}
