fn main(a: u32,{ @builtin(x) b: u32) {
}
