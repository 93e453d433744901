//go:build js && wasm

package modelcontext_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/modelcontext"
	"github.com/modelcontext-go/modelcontext/wasm/modelcontext/internal/contracttest"
	"github.com/modelcontext-go/modelcontext/wasm/modelcontext/modelcontexttest"
)

// TestTheDoubleIsTheModule plays one scenario of the module's rules
// through the package's API on the page's real module, then on
// modelcontexttest's Page in its place: both must observe the same, line
// by line.
func TestTheDoubleIsTheModule(t *testing.T) {
	modelcontext.Setup(t)
	onModule := contracttest.Run(t, func() { time.Sleep(300 * time.Millisecond) })
	var onDouble []string
	t.Run("double", func(t *testing.T) {
		p := modelcontexttest.NewPage(t)
		onDouble = contracttest.Run(t, p.Wait)
	})
	if !slices.Equal(onModule, onDouble) {
		t.Errorf("the module and the double differ:\n%s", diff(onModule, onDouble))
	}
	if !slices.Equal(onModule, contracttest.Want) {
		t.Errorf("on the module, the scenario differs from what it wants:\n%s", diff(onModule, contracttest.Want))
	}
}

// diff shows two lists of lines side by side where they differ.
func diff(a, b []string) string {
	var out strings.Builder
	for i := range max(len(a), len(b)) {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		mark := "  "
		if x != y {
			mark = "≠ "
		}
		out.WriteString(mark + x + "\n  " + strings.Repeat(" ", 0) + "| " + y + "\n")
	}
	return out.String()
}
