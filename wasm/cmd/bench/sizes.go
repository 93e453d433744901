package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"

	"github.com/andybalholm/brotli"
)

// Size is what a page downloads for one implementation.
type Size struct {
	Impl   string   `json:"impl"`
	Files  []string `json:"files"`
	Raw    int      `json:"raw"`
	Gzip   int      `json:"gzip"`
	Brotli int      `json:"brotli"`
	// FileBrotli is the brotli size of each file, in the order of Files.
	FileBrotli []int `json:"file_brotli"`
}

func measureSizes(root, dist, against, bareWasm, wasmExec string) ([]Size, error) {
	sets := []struct {
		impl  string
		names []string
		paths []string
	}{
		{"ours", []string{"dist/modelcontext.wasm", "dist/modelcontext.js"},
			[]string{filepath.Join(dist, "modelcontext.wasm"), filepath.Join(dist, "modelcontext.js")}},
		{"ref", []string{"testdata/reference/modelcontext.js"},
			[]string{filepath.Join(root, "testdata", "reference", "modelcontext.js")}},
		{"bare", []string{"bare.wasm", "wasm_exec.js"}, []string{bareWasm, wasmExec}},
	}
	if against != "" {
		sets = append(sets, struct {
			impl  string
			names []string
			paths []string
		}{"against", []string{"-against modelcontext.wasm", "modelcontext.js"},
			[]string{filepath.Join(against, "modelcontext.wasm"), filepath.Join(against, "modelcontext.js")}})
	}
	var out []Size
	for _, s := range sets {
		sz := Size{Impl: s.impl, Files: s.names}
		for _, p := range s.paths {
			b, err := os.ReadFile(p)
			if err != nil {
				return nil, err
			}
			g, br, err := compressed(b)
			if err != nil {
				return nil, err
			}
			sz.Raw += len(b)
			sz.Gzip += g
			sz.Brotli += br
			sz.FileBrotli = append(sz.FileBrotli, br)
		}
		out = append(out, sz)
	}
	return out, nil
}

// compressed returns the gzip and brotli sizes of b at their best settings,
// as wasm/cmd/size measures them.
func compressed(b []byte) (int, int, error) {
	var gz, br bytes.Buffer
	zw, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if err != nil {
		return 0, 0, err
	}
	bw := brotli.NewWriterLevel(&br, brotli.BestCompression)
	for _, w := range []interface {
		Write([]byte) (int, error)
		Close() error
	}{zw, bw} {
		if _, err := w.Write(b); err != nil {
			return 0, 0, err
		}
		if err := w.Close(); err != nil {
			return 0, 0, err
		}
	}
	return gz.Len(), br.Len(), nil
}
