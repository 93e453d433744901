package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// notTests are the Makefile's test-* targets that make test does not list
// itself: what it installs and builds first, and test-browser, whose two
// halves it lists.
var notTests = []string{"test-deps", "test-prep", "test-browser"}

// TestMakeTestRunsEveryTarget: every test-* target of the Makefile (and
// lint, types and check-loader) is in TEST_TARGETS, the list make test runs,
// once.
func TestMakeTestRunsEveryTarget(t *testing.T) {
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(string(b), "\\\n", " ")
	list := regexp.MustCompile(`(?m)^TEST_TARGETS\s*:=(.*)$`).FindStringSubmatch(text)
	if list == nil {
		t.Fatal("the Makefile sets no TEST_TARGETS")
	}
	listed := strings.Fields(list[1])
	want := []string{"lint", "types", "check-loader"}
	for _, m := range regexp.MustCompile(`(?m)^(test-[a-z0-9-]+):`).FindAllStringSubmatch(text, -1) {
		if !slices.Contains(notTests, m[1]) && !slices.Contains(want, m[1]) {
			want = append(want, m[1])
		}
	}
	for _, w := range want {
		if n := countOf(listed, w); n != 1 {
			t.Errorf("TEST_TARGETS lists %s %d times, want once", w, n)
		}
	}
	for _, l := range listed {
		if !slices.Contains(want, l) {
			t.Errorf("TEST_TARGETS lists %s, which is no test target of the Makefile", l)
		}
	}
}

func countOf(list []string, s string) int {
	n := 0
	for _, l := range list {
		if l == s {
			n++
		}
	}
	return n
}
