package demosite

import (
	"bytes"
	"compress/gzip"
)

// haveBrotli: the WebAssembly build (the Worker, which compresses at the
// edge) leaves brotli's encoder out of its binary.
const haveBrotli = false

// compressed is body in gzip, the only encoding this build negotiates.
func compressed(body []byte, _ string) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(body) // writes to a bytes.Buffer do not fail
	zw.Close()
	return b.Bytes()
}
