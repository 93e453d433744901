package docs

import (
	"fmt"
	"os"
	"path"
	"regexp"
	"strings"
	"unicode"
)

// link matches a Markdown link or image whose target is not a URL with a
// scheme: [text](target) or ![alt](target).
var link = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// Prose returns the indexes of the file's lines outside its code blocks.
func (d *Doc) Prose() []int {
	var prose []int
	fence := ""
	for i, line := range d.Lines {
		switch f := fenceOf(line); {
		case fence == "" && f != "":
			fence = f
		case fence != "" && strings.TrimSpace(line) == fence:
			fence = ""
		case fence == "":
			prose = append(prose, i)
		}
	}
	return prose
}

// Anchors returns the anchors GitHub gives the file's headings: lower case,
// punctuation dropped, spaces as hyphens, "-1", "-2" after a repeat.
func (d *Doc) Anchors() map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	for _, i := range d.Prose() {
		line := d.Lines[i]
		if !strings.HasPrefix(line, "#") {
			continue
		}
		title := strings.TrimSpace(strings.TrimLeft(line, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(title) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteByte('-')
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			anchors[fmt.Sprintf("%s-%d", a, n)] = true
		} else {
			anchors[a] = true
		}
		seen[a]++
	}
	return anchors
}

// BrokenLinks returns one line for each relative link of the documents that
// names a file that does not exist, or a heading its file does not have.
func BrokenLinks(root string, docs []*Doc) []string {
	byFile := map[string]*Doc{}
	for _, d := range docs {
		byFile[d.File] = d
	}
	var broken []string
	for _, d := range docs {
		for _, i := range d.Prose() {
			line := d.Lines[i]
			for _, m := range link.FindAllStringSubmatch(line, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				file, anchor, _ := strings.Cut(target, "#")
				where := fmt.Sprintf("%s:%d: %s", d.File, i+1, target)
				if file == "" {
					file = d.File
				} else {
					file = path.Clean(path.Join(path.Dir(d.File), file))
				}
				if _, err := os.Stat(path.Join(root, file)); err != nil {
					broken = append(broken, where+": no such file")
					continue
				}
				if anchor == "" {
					continue
				}
				target2, ok := byFile[file]
				if !ok {
					broken = append(broken, where+": an anchor in a file that is not Markdown")
					continue
				}
				if !target2.Anchors()[anchor] {
					broken = append(broken, where+": no such heading")
				}
			}
		}
	}
	return broken
}
