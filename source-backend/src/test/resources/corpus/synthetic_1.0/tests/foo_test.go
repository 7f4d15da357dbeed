package foo

func TestFoo(t *testing.T) {
	t.Fatal("fail")
}
