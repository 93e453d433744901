//go:build !js

package serve

import (
	"bytes"
	"compress/gzip"
	"io"

	"github.com/andybalholm/brotli"
)

// precompress returns the brotli and gzip forms of body.
func precompress(body []byte) (br, gz []byte, err error) {
	var bb, gb bytes.Buffer
	q := BrotliQuality
	if len(body) <= SmallFile {
		q = brotli.BestCompression
	}
	bw := brotli.NewWriterLevel(&bb, q)
	zw, err := gzip.NewWriterLevel(&gb, gzip.DefaultCompression)
	if err != nil {
		return nil, nil, err
	}
	for _, w := range []io.WriteCloser{bw, zw} {
		if _, err := w.Write(body); err != nil {
			return nil, nil, err
		}
		if err := w.Close(); err != nil {
			return nil, nil, err
		}
	}
	return bb.Bytes(), gb.Bytes(), nil
}
