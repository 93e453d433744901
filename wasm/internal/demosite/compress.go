//go:build !js

package demosite

import (
	"bytes"
	"compress/gzip"
	"io"

	"github.com/andybalholm/brotli"
)

// haveBrotli: the host build sends a page with a nonce in brotli when asked.
const haveBrotli = true

// compressed is body in enc, "br" or "gzip".
func compressed(body []byte, enc string) []byte {
	var b bytes.Buffer
	var zw io.WriteCloser = gzip.NewWriter(&b)
	if enc == "br" {
		zw = brotli.NewWriterLevel(&b, 5)
	}
	zw.Write(body) // writes to a bytes.Buffer do not fail
	zw.Close()
	return b.Bytes()
}
