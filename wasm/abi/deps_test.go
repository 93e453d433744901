package abi

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestTheModuleStaysSmall: the module's .wasm links none of the packages
// that would make it much larger (their sizes are in
// testdata/bench/PERFORMANCE.md), and no syscall/js: it talks to the loader
// through its own imports. Nor does it link the Go API for apps
// (wasm/modelcontext), which is a program of its own beside the module.
func TestTheModuleStaysSmall(t *testing.T) {
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "list", "-deps", "../cmd/modelcontext")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		deps[p] = true
	}
	for _, p := range []string{"fmt", "encoding/json", "reflect", "strings", "strconv", "unicode", "syscall/js", "os", "time"} {
		if deps[p] {
			t.Errorf("the module links %s", p)
		}
	}
	for p := range deps {
		if strings.HasPrefix(p, "honnef.co/go/js/dom") || strings.HasSuffix(p, "/wasm/modelcontext") {
			t.Errorf("the module links %s", p)
		}
	}
}
