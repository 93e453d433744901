//go:build js && wasm

package bridge

import "unsafe"

// An export returns one number. When its answer is more than that (an
// error's message, a template's parameters, a list of IDs), it writes the
// answer into out and returns out's address, negated for an error: the call
// returns what it returns, and nothing is left behind for a later call to
// pick up. Every record is a sequence of little-endian 32-bit words, and
// the loader reads it before it calls into Go again (a later export
// overwrites it). Addresses fit an int32: Go's linear memory on a page stays
// far below 2 GB.
//
//	failure  kind (abi.FailError, abi.FailTypeError), length, the message's bytes
//	match    the template's ID, length, the parameters' JSON
//	list     count, that many IDs
var out = make([]byte, 0, 256)

func word(b []byte, v uint32) []byte {
	return append(b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
}

// address returns where out starts.
func address() int32 { return int32(uintptr(unsafe.Pointer(unsafe.SliceData(out)))) }

// failure writes a failure record and returns the (negative) result that
// points to it.
func failure(kind uint32, msg string) int32 {
	out = append(word(word(out[:0], kind), uint32(len(msg))), msg...)
	return -address()
}

// matched writes a match record and returns its address.
func matched(id int32, params string) int32 {
	out = append(word(word(out[:0], uint32(id)), uint32(len(params))), params...)
	return address()
}
