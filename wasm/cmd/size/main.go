// Command size prints the raw, gzip and brotli sizes of the files it is given:
// what a page pays to download the module.
//
//	go run ./wasm/cmd/size dist/modelcontext.wasm dist/modelcontext.js
package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/andybalholm/brotli"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "size:", err)
		os.Exit(1)
	}
}

// Sizes are the bytes of one file as served.
type Sizes struct{ Raw, Gzip, Brotli int }

// Measure compresses b the way a server would at its best settings.
func Measure(b []byte) (Sizes, error) {
	var gz, br bytes.Buffer
	zw, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if err != nil {
		return Sizes{}, err
	}
	bw := brotli.NewWriterLevel(&br, brotli.BestCompression)
	for _, w := range []io.WriteCloser{zw, bw} {
		if _, err := w.Write(b); err != nil {
			return Sizes{}, err
		}
		if err := w.Close(); err != nil {
			return Sizes{}, err
		}
	}
	return Sizes{Raw: len(b), Gzip: gz.Len(), Brotli: br.Len()}, nil
}

func run(files []string, out io.Writer) error {
	if len(files) == 0 {
		return fmt.Errorf("usage: size FILE...")
	}
	fmt.Fprintf(out, "%-22s %10s %10s %10s\n", "file", "raw", "gzip", "brotli")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return fmt.Errorf("%v (run make build first)", err)
		}
		s, err := Measure(b)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%-22s %10s %10s %10s\n", filepath.Base(f), kb(s.Raw), kb(s.Gzip), kb(s.Brotli))
	}
	return nil
}

func kb(n int) string { return fmt.Sprintf("%.1f KB", float64(n)/1000) }
