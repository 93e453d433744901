package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestOwnerTableNamesRealCode holds wasm/README.md's "Who decides what" to
// the code: every file an owner cell names exists (a loader file under
// js/loader, a Go file or package under wasm), and every function it names
// is declared in the files the cell names (a loader owner: any loader file
// when it names none; a Go owner: the package it names). A row that names
// code which moved or was renamed fails here.
func TestOwnerTableNamesRealCode(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	section := string(readme)
	start, end := strings.Index(section, "## Who decides what"), strings.Index(section, "## What crosses")
	if start < 0 || end < start {
		t.Fatal(`wasm/README.md has no "## Who decides what" section before "## What crosses"`)
	}
	tick := regexp.MustCompile("`([^`]+)`")
	ident := regexp.MustCompile(`^[A-Za-z_]\w*$`)
	rows := 0
	for line := range strings.SplitSeq(section[start:end], "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 4 || strings.HasPrefix(strings.TrimSpace(cells[1]), "---") || strings.TrimSpace(cells[1]) == "decision" {
			continue
		}
		rows++
		owner := cells[2]
		var jsFiles, goDirs, names []string
		for _, m := range tick.FindAllStringSubmatch(owner, -1) {
			tok := m[1]
			switch {
			case strings.HasSuffix(tok, ".js"):
				jsFiles = append(jsFiles, filepath.Join(loaderDir, tok))
			case strings.HasSuffix(tok, ".go"):
				if _, err := os.Stat(filepath.Join("../..", tok)); err != nil {
					t.Errorf("owner %q names %s, which wasm/ does not have", strings.TrimSpace(owner), tok)
				}
			case strings.HasPrefix(tok, "wasm/"):
				if _, err := os.Stat(filepath.Join("../../..", tok)); err != nil {
					t.Errorf("owner %q names %s, which does not exist", strings.TrimSpace(owner), tok)
				}
			case strings.Contains(tok, "."): // registry.Match
				pkg, name, _ := strings.Cut(tok, ".")
				goDirs = append(goDirs, filepath.Join("../..", pkg))
				names = append(names, name)
			case ident.MatchString(tok) && strings.Contains(owner, "Go") && !strings.Contains(owner, "loader"):
				goDirs = append(goDirs, filepath.Join("../..", tok))
			case ident.MatchString(tok):
				names = append(names, tok)
			}
		}
		for _, f := range jsFiles {
			if _, err := os.Stat(f); err != nil {
				t.Errorf("owner %q names %s, which js/loader does not have", strings.TrimSpace(owner), strings.TrimPrefix(f, loaderDir+"/"))
			}
		}
		for _, name := range names {
			if strings.Contains(owner, "loader") {
				search := jsFiles
				if len(search) == 0 {
					search = append(globJS(t, loaderDir), globJS(t, runtimeDir)...)
				}
				if !declaresJS(t, search, name) {
					t.Errorf("owner %q names %s, which none of %v declares", strings.TrimSpace(owner), name, search)
				}
				continue
			}
			if !mentionsGo(t, goDirs, name) {
				t.Errorf("owner %q names %s, which the Go of %v does not have", strings.TrimSpace(owner), name, goDirs)
			}
		}
	}
	if rows < 10 {
		t.Fatalf("read %d rows of the owner table; the table's layout changed?", rows)
	}
}

func globJS(t *testing.T, dir string) []string {
	t.Helper()
	found, err := filepath.Glob(filepath.Join(dir, "*.js"))
	if err != nil {
		t.Fatal(err)
	}
	return found
}

func declaresJS(t *testing.T, files []string, name string) bool {
	t.Helper()
	decl := regexp.MustCompile(`(?m)^(export )?(async function|function|const|let|class) ` + regexp.QuoteMeta(name) + `\b`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err == nil && decl.Match(b) {
			return true
		}
	}
	return false
}

func mentionsGo(t *testing.T, dirs []string, name string) bool {
	t.Helper()
	word := regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`)
	for _, d := range dirs {
		found, _ := filepath.Glob(filepath.Join(d, "*.go"))
		for _, f := range found {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			if b, err := os.ReadFile(f); err == nil && word.Match(b) {
				return true
			}
		}
	}
	return false
}
