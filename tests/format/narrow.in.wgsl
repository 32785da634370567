// Formatted with indent-width = 2 and line-width = 60 (the test's options for files named narrow*).
fn clamp_sum(first: f32, second: f32, third: f32, fourth: f32) -> f32 {
if first > 0.0 { return clamp(first + second + third + fourth, 0.0, 1.0); }
return 0.0;
}
