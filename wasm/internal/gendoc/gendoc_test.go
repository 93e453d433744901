package gendoc

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
)

func TestDoc(t *testing.T) {
	d := New("size", "wasm/cmd/size", "from the files make build writes")
	d.Table([]Col{{Name: "file"}, {Name: "bytes", Num: true}}, [][]string{{"a|b", "1"}, {"two\nlines"}})
	d.Heading(2, "Next")
	d.Para("%d rounds", 3)
	want := "<!-- Written by make size (wasm/cmd/size) from the files make build writes; do not edit. -->\n" +
		"| file | bytes |\n|---|---:|\n| a\\|b | 1 |\n| two lines |  |\n" +
		"\n## Next\n\n3 rounds\n"
	if got := d.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	d = New("bench", "wasm/cmd/bench", "")
	d.Heading(1, "Title")
	if got, want := d.String(), "<!-- Written by make bench (wasm/cmd/bench); do not edit. -->\n# Title\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	name := filepath.Join(t.TempDir(), "sub", "T.md")
	if err := d.WriteFile(name); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(name); err != nil || string(b) != d.String() {
		t.Errorf("WriteFile wrote %q, %v", b, err)
	}
}

func TestCommit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	if got := Commit(dir); got != "" {
		t.Errorf("Commit outside a repository = %q, want \"\"", got)
	}
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		cmd.Dir = dir
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, b)
		}
	}
	git("init", "-q")
	f := filepath.Join(dir, "f")
	os.WriteFile(f, []byte("1"), 0o644)
	git("add", "f")
	git("commit", "-q", "-m", "one")
	if got := Commit(dir); !regexp.MustCompile(`^[0-9a-f]{12}$`).MatchString(got) {
		t.Errorf("Commit = %q, want a short hash", got)
	}
	os.WriteFile(f, []byte("2"), 0o644)
	if got := Commit(dir); !regexp.MustCompile(`^[0-9a-f]{12} \+ uncommitted changes$`).MatchString(got) {
		t.Errorf("Commit with a changed file = %q", got)
	}
}
