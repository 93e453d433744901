package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTable: the printed sizes, the Markdown table the docs link to, and a
// file over its budget named as such.
func TestTable(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "modelcontext.js")
	other := filepath.Join(dir, "other.js")
	// Random-looking bytes do not compress: well over the script's 8,000 B budget.
	b := make([]byte, 20000)
	x := uint32(1)
	for i := range b {
		x = x*1664525 + 1013904223
		b[i] = byte(x >> 24)
	}
	os.WriteFile(script, b, 0o644)
	os.WriteFile(other, []byte("small"), 0o644)
	md := filepath.Join(dir, "SIZES.md")
	var out strings.Builder
	if err := run([]string{"-md", md, script, other}, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "OVER BUDGET modelcontext.js") {
		t.Errorf("the script over its budget is not named:\n%s", out.String())
	}
	table, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| `modelcontext.js` | 20000 B |", "8000 B (over) |", "| `other.js` | 5 B |"} {
		if !strings.Contains(string(table), want) {
			t.Errorf("SIZES.md lacks %q:\n%s", want, table)
		}
	}
	if err := run(nil, &out); err == nil {
		t.Error("no files: no usage error")
	}
}
