// testdata/go/layout.go - Go layouts for tests/e2e/golang.sh, built at test
// time with Debian's golang-go (-gcflags='-N -l' keeps the types in the
// DWARF).  Run, it prints what the compiler decided (unsafe.Sizeof,
// unsafe.Alignof, unsafe.Offsetof), one "TYPE KEY VALUE" line each.
//
// A func field is a pointer-sized value: its DWARF type is a subroutine
// type carrying DW_AT_byte_size 8, which the reader must take.
package main

import (
	"fmt"
	"unsafe"
)

type T struct {
	A byte
	F func(int) int
	B int64
}

type Handlers struct {
	on    bool
	open  func() error
	n     int32
	close func()
	s     string
}

func main() {
	var t T
	var h Handlers
	fmt.Println("main.T size", unsafe.Sizeof(t))
	fmt.Println("main.T align", unsafe.Alignof(t))
	fmt.Println("main.T A", unsafe.Offsetof(t.A))
	fmt.Println("main.T F", unsafe.Offsetof(t.F))
	fmt.Println("main.T B", unsafe.Offsetof(t.B))
	fmt.Println("main.Handlers size", unsafe.Sizeof(h))
	fmt.Println("main.Handlers align", unsafe.Alignof(h))
	fmt.Println("main.Handlers on", unsafe.Offsetof(h.on))
	fmt.Println("main.Handlers open", unsafe.Offsetof(h.open))
	fmt.Println("main.Handlers n", unsafe.Offsetof(h.n))
	fmt.Println("main.Handlers close", unsafe.Offsetof(h.close))
	fmt.Println("main.Handlers s", unsafe.Offsetof(h.s))
}
