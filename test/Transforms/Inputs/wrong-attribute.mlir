func.func @wrong(%a: f32) -> f32 {
  %0 = math.exp %a {amp.precision = "never"} : f32
  return %0 : f32
}
