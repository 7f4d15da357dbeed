import hello
assert hello.greet() == "hello, world"
