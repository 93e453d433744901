// Command size prints the raw, gzip and brotli sizes of the files it is given:
// what a page pays to download the module, each against its budget where it
// has one. With -md it also writes them as a Markdown table, the one place
// the docs take the module's sizes from (make size writes
// testdata/bench/SIZES.md).
//
//	go run ./wasm/cmd/size [-md FILE] dist/modelcontext.wasm dist/modelcontext.js
package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/andybalholm/brotli"

	"github.com/modelcontext-go/modelcontext/wasm/internal/gendoc"
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

// budgets are the most brotli bytes a shipped file may have.
var budgets = map[string]int{
	"modelcontext.js":   8000,   // the script every visit downloads
	"modelcontext.wasm": 443466, // what the first consumer contact fetches
}

func run(args []string, out io.Writer) error {
	fl := flag.NewFlagSet("size", flag.ContinueOnError)
	md := fl.String("md", "", "also write the sizes as a Markdown table into this `file`")
	if err := fl.Parse(args); err != nil {
		return err
	}
	files := fl.Args()
	if len(files) == 0 {
		return fmt.Errorf("usage: size [-md FILE] FILE...")
	}
	var rows [][]string
	fmt.Fprintf(out, "%-22s %10s %10s %10s\n", "file", "raw", "gzip", "brotli")
	var over []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return fmt.Errorf("%v (run make build first)", err)
		}
		s, err := Measure(b)
		if err != nil {
			return err
		}
		name := filepath.Base(f)
		fmt.Fprintf(out, "%-22s %10s %10s %10s\n", name, kb(s.Raw), kb(s.Gzip), kb(s.Brotli))
		budget := ""
		if max, ok := budgets[name]; ok {
			budget = fmt.Sprintf("%d B", max)
			if s.Brotli > max {
				budget += " (over)"
				over = append(over, fmt.Sprintf("%s: %d B brotli, over its budget of %d B", name, s.Brotli, max))
			}
		}
		rows = append(rows, []string{"`" + name + "`", fmt.Sprintf("%d B", s.Raw), fmt.Sprintf("%d B", s.Gzip), fmt.Sprintf("%d B", s.Brotli), budget})
	}
	for _, o := range over {
		fmt.Fprintln(out, "OVER BUDGET", o)
	}
	if *md != "" {
		d := gendoc.New("size", "wasm/cmd/size", "from the files make build writes")
		d.Table([]gendoc.Col{{Name: "file"}, {Name: "raw", Num: true}, {Name: "gzip", Num: true}, {Name: "brotli", Num: true}, {Name: "brotli budget"}}, rows)
		return d.WriteFile(*md)
	}
	return nil
}

func kb(n int) string { return fmt.Sprintf("%.1f KB", float64(n)/1000) }
