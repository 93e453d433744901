// Package gendoc writes the generated Markdown the docs take their numbers
// from (testdata/bench/SIZES.md, BENCH.md, PAGECOST.md, AGENT.md): a "do not
// edit" header, paragraphs and tables. It also tells which commit a run
// measured, so that a table says what its numbers are of.
package gendoc

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Doc is a generated Markdown file being written.
type Doc struct{ b strings.Builder }

// New starts a file with the header that names the make rule and the command
// that write it, and what from: "Written by make size (wasm/cmd/size) from
// the files make build writes; do not edit."
func New(rule, cmd, from string) *Doc {
	d := &Doc{}
	if from != "" {
		from = " " + from
	}
	fmt.Fprintf(&d.b, "<!-- Written by make %s (%s)%s; do not edit. -->\n", rule, cmd, from)
	return d
}

// Heading adds a heading of the given level, with a blank line before it
// unless the file has only its header.
func (d *Doc) Heading(level int, text string) {
	d.blank()
	fmt.Fprintf(&d.b, "%s %s\n", strings.Repeat("#", level), text)
}

// Para adds a paragraph.
func (d *Doc) Para(format string, a ...any) {
	d.blank()
	fmt.Fprintf(&d.b, format, a...)
	d.b.WriteString("\n")
}

// blank separates a block from the previous one; the header and a table that
// follows it directly (as SIZES.md has it) need none.
func (d *Doc) blank() {
	if strings.Count(d.b.String(), "\n") > 1 {
		d.b.WriteString("\n")
	}
}

// Col is a table's column: its heading, and whether it holds numbers, which
// are right-aligned.
type Col struct {
	Name string
	Num  bool
}

// Table adds a table. A cell's | is escaped and a newline becomes a space,
// so that a cell cannot break the row.
func (d *Doc) Table(cols []Col, rows [][]string) {
	d.blank()
	cell := strings.NewReplacer("|", `\|`, "\n", " ")
	d.b.WriteString("|")
	for _, c := range cols {
		fmt.Fprintf(&d.b, " %s |", cell.Replace(c.Name))
	}
	d.b.WriteString("\n|")
	for _, c := range cols {
		if c.Num {
			d.b.WriteString("---:|")
		} else {
			d.b.WriteString("---|")
		}
	}
	d.b.WriteString("\n")
	for _, r := range rows {
		d.b.WriteString("|")
		for i := range cols {
			v := ""
			if i < len(r) {
				v = cell.Replace(r[i])
			}
			fmt.Fprintf(&d.b, " %s |", v)
		}
		d.b.WriteString("\n")
	}
}

// String returns the file's text.
func (d *Doc) String() string { return d.b.String() }

// Targets adds a run's "Targets" section, a row a target: "ok" or "MISS",
// what the target is, and what was measured against it; nothing when there
// are none. row gives target i's three.
func (d *Doc) Targets(n int, row func(i int) (met bool, name, measured string)) {
	if n == 0 {
		return
	}
	d.Heading(2, "Targets")
	rows := make([][]string, n)
	for i := range rows {
		met, name, measured := row(i)
		mark := "MISS"
		if met {
			mark = "ok"
		}
		rows[i] = []string{mark, name, measured}
	}
	d.Table([]Col{{Name: "met"}, {Name: "target"}, {Name: "measured"}}, rows)
}

// RenderFrom reads a run's results of type T from the JSON file from and
// writes what render makes of them to md: a command's -md-from.
func RenderFrom[T any](from, md string, render func(*T) *Doc) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	var res T
	if err := json.Unmarshal(b, &res); err != nil {
		return fmt.Errorf("%s: %w", from, err)
	}
	return render(&res).WriteFile(md)
}

// CommitOr is commit, or "not recorded" for a run that kept none.
func CommitOr(commit string) string {
	if commit == "" {
		return "not recorded"
	}
	return commit
}

// WriteFile writes the file, creating its folder.
func (d *Doc) WriteFile(name string) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	return os.WriteFile(name, []byte(d.String()), 0o644)
}

// Commit names the commit checked out in the repository at root, with
// "+ uncommitted changes" when tracked files differ from it; "" outside Git.
func Commit(root string) string {
	git := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		b, err := cmd.Output()
		if err != nil {
			return ""
		}
		return strings.TrimSpace(string(b))
	}
	c := git("rev-parse", "--short=12", "HEAD")
	if c == "" {
		return ""
	}
	if git("status", "--porcelain", "--untracked-files=no") != "" {
		c += " + uncommitted changes"
	}
	return c
}

// LoadAverage is the machine's load average over the last minute, from
// /proc/loadavg, or 0 where there is none.
func LoadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	var l float64
	fmt.Sscan(string(b), &l)
	return l
}

// ChromiumVersion is what the Chromium at path prints for --version
// ("Chromium 123.0.0.0 …"), or "".
func ChromiumVersion(path string) string {
	b, err := exec.Command(path, "--version").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}
