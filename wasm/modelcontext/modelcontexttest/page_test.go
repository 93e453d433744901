package modelcontexttest_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/modelcontext/internal/contracttest"
	"github.com/modelcontext-go/modelcontext/wasm/modelcontext/modelcontexttest"
)

// TestContract plays the module's rules on the double (the browser tests
// play the same scenario on the module and on the double, and compare).
func TestContract(t *testing.T) {
	p := modelcontexttest.NewPage(t)
	got := contracttest.Run(t, p.Wait)
	if !slices.Equal(got, contracttest.Want) {
		t.Errorf("the scenario on the double:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(contracttest.Want, "\n"))
	}
	if errs := p.Errors(); len(errs) != 0 {
		t.Errorf("errors reported: %q", errs)
	}
}
