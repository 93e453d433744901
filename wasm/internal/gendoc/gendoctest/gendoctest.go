// Package gendoctest holds the check every command that writes a generated
// table makes of its -md-from. It is test code, imported only by tests.
package gendoctest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// RenderFrom checks that renderFrom, given res as JSON, writes what
// markdown renders of res itself: the JSON keeps all the table needs.
func RenderFrom[T any](t *testing.T, res *T, renderFrom func(from, md string) error, markdown func(*T) string) {
	t.Helper()
	dir := t.TempDir()
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	from, md := filepath.Join(dir, "run.json"), filepath.Join(dir, "run.md")
	if err := os.WriteFile(from, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := renderFrom(from, md); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	if want := markdown(res); string(got) != want {
		t.Errorf("rendered from the JSON:\n%s\nwant, as rendered from the run:\n%s", got, want)
	}
}
