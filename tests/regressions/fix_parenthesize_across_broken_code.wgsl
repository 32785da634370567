fn f() {
  if false { var m<a<b>>(()) {}
}
