// Package docs finds the code examples in the repository's Markdown files,
// so that tests run them as written wherever a guide keeps them.
//
// An example is marked by the comment line "<!-- example: NAME -->" before
// its fenced code block; NAME is unique across the repository. A marker may
// stand before several blocks (say, an HTML tag and the script that uses
// it): Example picks the first of a language, up to the next marker or
// heading. testdata/docs.mjs reads the same markers for the Node.js checks.
package docs

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// Block is a fenced code block of one of the repository's Markdown files.
type Block struct {
	File string // the file's path from the repository root, with slashes
	Line int    // the line of the opening fence, counting from 1
	Lang string // the fence's language, "" when it has none
	Text string // the block's lines, each ending in a newline
}

// Doc is one Markdown file: its blocks and the examples marked in it.
type Doc struct {
	File     string
	Lines    []string
	Blocks   []Block
	markers  map[string]int // example name -> index of the first block after it
	sections []int          // indexes of blocks that follow a heading or a marker
}

// skip holds the folders that hold no documentation of ours.
var skip = map[string]bool{".git": true, ".cache": true, "node_modules": true, "dist": true, "out": true}

// Root returns the directory holding go.mod, found by walking up from the
// working directory.
func Root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", fmt.Errorf("docs: no go.mod above %s", dir)
		}
		d = parent
	}
}

// All reads every Markdown file under the repository root, in path order.
func All() ([]*Doc, error) {
	root, err := Root()
	if err != nil {
		return nil, err
	}
	var files []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && skip[d.Name()] {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".md") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	docs := make([]*Doc, 0, len(files))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		rel, _ := filepath.Rel(root, f)
		d, err := Parse(filepath.ToSlash(rel), string(b))
		if err != nil {
			return nil, err
		}
		docs = append(docs, d)
	}
	return docs, nil
}

// Parse splits a Markdown file into its fenced blocks and finds its markers.
func Parse(file, text string) (*Doc, error) {
	d := &Doc{File: file, Lines: strings.Split(text, "\n"), markers: map[string]int{}}
	var pending []string // markers waiting for their first block
	for i := 0; i < len(d.Lines); i++ {
		line := d.Lines[i]
		if name, ok := marker(line); ok {
			if _, dup := d.markers[name]; dup || slices.Contains(pending, name) {
				return nil, fmt.Errorf("%s:%d: a second <!-- example: %s -->", file, i+1, name)
			}
			pending = append(pending, name)
			d.sections = append(d.sections, len(d.Blocks))
			continue
		}
		if strings.HasPrefix(line, "#") {
			d.sections = append(d.sections, len(d.Blocks))
			continue
		}
		fence := fenceOf(line)
		if fence == "" {
			continue
		}
		end := i + 1
		for end < len(d.Lines) && strings.TrimSpace(d.Lines[end]) != fence {
			end++
		}
		if end == len(d.Lines) {
			return nil, fmt.Errorf("%s:%d: a code block that never closes", file, i+1)
		}
		indent := len(line) - len(strings.TrimLeft(line, " "))
		var text strings.Builder
		for _, l := range d.Lines[i+1 : end] {
			if len(l) >= indent && strings.TrimSpace(l[:indent]) == "" {
				l = l[indent:]
			}
			text.WriteString(l + "\n")
		}
		for _, name := range pending {
			d.markers[name] = len(d.Blocks)
		}
		pending = nil
		d.Blocks = append(d.Blocks, Block{File: file, Line: i + 1, Lang: strings.TrimSpace(strings.TrimLeft(line, " `~")), Text: text.String()})
		i = end
	}
	if len(pending) > 0 {
		return nil, fmt.Errorf("%s: <!-- example: %s --> has no code block after it", file, pending[0])
	}
	return d, nil
}

// Find returns the first block in language lang (any language if lang is
// "") after the marker of the example name, looking no further than the
// next marker or heading.
func Find(docs []*Doc, name, lang string) (Block, error) {
	var found []Block
	for _, d := range docs {
		first, ok := d.markers[name]
		if !ok {
			continue
		}
		end := len(d.Blocks)
		for _, s := range d.sections {
			if s > first {
				end = s
				break
			}
		}
		for _, b := range d.Blocks[first:end] {
			if lang == "" || b.Lang == lang {
				found = append(found, b)
				break
			}
		}
		if len(found) == 0 {
			return Block{}, fmt.Errorf("%s: no ```%s block after <!-- example: %s -->", d.File, lang, name)
		}
	}
	switch len(found) {
	case 0:
		return Block{}, fmt.Errorf("no Markdown file has <!-- example: %s -->", name)
	case 1:
		return found[0], nil
	}
	return Block{}, fmt.Errorf("<!-- example: %s --> is in both %s and %s", name, found[0].File, found[1].File)
}

// Example returns the block Find returns for name and lang in every
// Markdown file of the repository, or fails the test.
func Example(t interface {
	Helper()
	Fatal(...any)
}, name, lang string) Block {
	t.Helper()
	docs, err := All()
	if err != nil {
		t.Fatal(err)
	}
	b, err := Find(docs, name, lang)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func marker(line string) (string, bool) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(line), "<!-- example: ")
	if !ok {
		return "", false
	}
	name, ok := strings.CutSuffix(rest, " -->")
	return name, ok && name != ""
}

// fenceOf returns the fence a line opens ("```" or "~~~", possibly
// longer), or "" when it opens none.
func fenceOf(line string) string {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 {
		return ""
	}
	for _, c := range []string{"`", "~"} {
		n := len(t) - len(strings.TrimLeft(t, c))
		if n >= 3 {
			return strings.Repeat(c, n)
		}
	}
	return ""
}
