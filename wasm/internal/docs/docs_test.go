package docs

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const sample = "# Title\n\n<!-- example: tag -->\n```html\n<script></script>\n```\n\n```js\nrun();\n```\n\n## Next\n\n```js\nlater();\n```\n"

func TestFind(t *testing.T) {
	d, err := Parse("a.md", sample)
	if err != nil {
		t.Fatal(err)
	}
	html, err := Find([]*Doc{d}, "tag", "html")
	if err != nil || html.Text != "<script></script>\n" || html.Line != 4 {
		t.Errorf("html block: %+v, %v", html, err)
	}
	js, err := Find([]*Doc{d}, "tag", "js")
	if err != nil || js.Text != "run();\n" {
		t.Errorf("js block: %+v, %v", js, err)
	}
	// A block past the next heading is not the example's.
	if _, err := Find([]*Doc{d}, "tag", "ts"); err == nil {
		t.Error("found a ts block that is not there")
	}
	if _, err := Find([]*Doc{d}, "missing", ""); err == nil {
		t.Error("found an example nobody marked")
	}
	other, _ := Parse("b.md", sample)
	if _, err := Find([]*Doc{d, other}, "tag", "html"); err == nil || !strings.Contains(err.Error(), "both") {
		t.Errorf("a marker in two files: %v", err)
	}
}

func TestParseRefuses(t *testing.T) {
	for name, text := range map[string]string{
		"unclosed":  "```js\nrun();\n",
		"no block":  "<!-- example: x -->\ntext\n",
		"two marks": "<!-- example: x -->\n```js\n```\n<!-- example: x -->\n```js\n```\n",
	} {
		if _, err := Parse("a.md", text); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
}

func TestAnchors(t *testing.T) {
	d, _ := Parse("a.md", "# The browser's own agent\n## From a Go program: `wasm/serve`\n## Errors\n## Errors\n```sh\n# not a heading\n```\n")
	got := d.Anchors()
	for _, want := range []string{"the-browsers-own-agent", "from-a-go-program-wasmserve", "errors", "errors-1"} {
		if !got[want] {
			t.Errorf("no anchor %q in %v", want, got)
		}
	}
	if got["not-a-heading"] {
		t.Error("a comment in a code block became a heading")
	}
}

// TestLinks: every relative link in the repository's Markdown files names a
// file that exists and, with an anchor, a heading that file has.
func TestLinks(t *testing.T) {
	docs, err := All()
	if err != nil {
		t.Fatal(err)
	}
	root, _ := Root()
	for _, b := range BrokenLinks(root, docs) {
		t.Error(b)
	}
}

// TestMarkers: every example marker names one example in the whole
// repository, and has a code block after it.
func TestMarkers(t *testing.T) {
	docs, err := All()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range docs {
		for name := range d.markers {
			n++
			if _, err := Find(docs, name, ""); err != nil {
				t.Error(err)
			}
		}
	}
	if n == 0 {
		t.Error("no example markers at all")
	}
}

// TestGuidesHaveContents: a guide with more than three sections lists each
// of them, linked, before the first.
func TestGuidesHaveContents(t *testing.T) {
	docs, err := All()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		if d.File == "CHANGELOG.md" || strings.HasPrefix(d.File, "testdata/") {
			continue
		}
		var sections []string
		first := -1
		for _, i := range d.Prose() {
			if line := d.Lines[i]; strings.HasPrefix(line, "## ") {
				sections = append(sections, line[3:])
				if first < 0 {
					first = i
				}
			}
		}
		if len(sections) <= 3 {
			continue
		}
		head := strings.Join(d.Lines[:first], "\n")
		anchors := d.Anchors()
		for _, s := range sections {
			one, _ := Parse("", "## "+s)
			for a := range one.Anchors() {
				if !anchors[a] || !strings.Contains(head, "(#"+a+")") {
					t.Errorf("%s: the contents before the first section do not link %q", d.File, s)
				}
			}
		}
	}
}

// TestFrontDoor: README.md stays a front door, and links every guide.
func TestFrontDoor(t *testing.T) {
	docs, err := All()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		if d.File != "README.md" {
			continue
		}
		if n := len(d.Lines); n > 300 {
			t.Errorf("README.md has %d lines; a front door has at most 300 (move the detail into a guide)", n)
		}
		text := strings.Join(d.Lines, "\n")
		for _, guide := range []string{"js/GUIDE.md", "js/FRAMEWORKS.md", "js/MCP.md", "js/extension/README.md", "wasm/modelcontext/README.md", "wasm/cmd/relay/README.md", "wasm/serve/README.md", "wasm/CONTRACT.md", "wasm/README.md", "SECURITY.md"} {
			if !strings.Contains(text, "("+guide) {
				t.Errorf("README.md does not link %s", guide)
			}
		}
		return
	}
	t.Fatal("no README.md")
}

// TestTheNodeFinderAgrees: testdata/docs.mjs, which the Node.js checks use,
// finds every example where this package does.
func TestTheNodeFinderAgrees(t *testing.T) {
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("node", filepath.Join(root, "testdata", "docs.mjs")).Output()
	if err != nil {
		t.Fatalf("node testdata/docs.mjs: %v", err)
	}
	var found map[string]struct {
		File string
		Line int
	}
	if err := json.Unmarshal(out, &found); err != nil {
		t.Fatalf("node testdata/docs.mjs printed %q: %v", out, err)
	}
	docs, err := All()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range docs {
		for name := range d.markers {
			n++
			b, err := Find(docs, name, "")
			if err != nil {
				t.Fatal(err)
			}
			if got := found[name]; got.File != b.File || got.Line != b.Line {
				t.Errorf("example %s: docs.mjs finds %s:%d, this package %s:%d", name, got.File, got.Line, b.File, b.Line)
			}
		}
	}
	if len(found) != n {
		t.Errorf("docs.mjs finds %d examples, this package %d", len(found), n)
	}
}
