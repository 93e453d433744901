package e2e

import (
	"bytes"
	"crypto/sha512"
	"encoding/base64"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// integrityOnce adds /sri/ to the shared server: /sri/<variant>/page.html
// loads dist/'s modelcontext.js with an integrity attribute (or, for the
// variant "none", without), and /sri/<variant>/<file> serves dist/'s files,
// one of them changed: the runtime ("runtime": a byte of its header
// comment, so that it still runs) or the .wasm ("wasm": an extra custom
// section, so that it still compiles), or both ("none").
var integrityOnce sync.Once

func serveIntegrity(t *testing.T) {
	requireImpl(t, "wasm")
	dist := filepath.Join(browsertest.RepoRoot(), "dist")
	integrityOnce.Do(func() {
		browsertest.SharedServer(t).Handle("/sri/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			variant, file, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/sri/"), "/")
			w.Header().Set("Cache-Control", "no-store")
			if file == "page.html" {
				script, err := os.ReadFile(filepath.Join(dist, "modelcontext.js"))
				if err != nil {
					http.Error(w, err.Error(), 500)
					return
				}
				attr := ` integrity="` + sri384(script) + `"`
				if variant == "none" {
					attr = ""
				}
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				w.Write([]byte(`<!doctype html><meta charset="utf-8"><title>integrity</title><script src="/harness.js"></script>` +
					`<script src="modelcontext.js"` + attr + ` data-boot="eager"></script>`))
				return
			}
			b, err := os.ReadFile(filepath.Join(dist, filepath.Base(file)))
			if err != nil {
				http.NotFound(w, r)
				return
			}
			switch {
			case file == "modelcontext-runtime.js" && (variant == "runtime" || variant == "none"):
				b = bytes.Replace(b, []byte("live resources"), []byte("live resourcez"), 1)
			case file == "modelcontext.wasm" && (variant == "wasm" || variant == "none"):
				// A custom section (id 0) named "x", one byte: a valid module still.
				b = append(bytes.Clone(b), 0, 2, 1, 'x')
			}
			if strings.HasSuffix(file, ".wasm") {
				w.Header().Set("Content-Type", "application/wasm")
			} else {
				w.Header().Set("Content-Type", "text/javascript")
			}
			w.Write(b)
		}))
	})
}

func sri384(b []byte) string {
	sum := sha512.Sum384(b)
	return "sha384-" + base64.StdEncoding.EncodeToString(sum[:])
}

// TestIntegrity: with an integrity attribute on the tag, a runtime or a
// .wasm with a changed byte makes ready reject naming the file; the
// untampered files boot; without the attribute the changed files load (the
// check is what refuses them).
func TestIntegrity(t *testing.T) {
	serveIntegrity(t)
	body := `try {
  await document.modelContext.ready;
  document.modelContext.registerResource({uri: 'state://x', name: 'x', get: () => 1});
  return 'ready: ' + await document.modelContext.readResource('state://x');
} catch (e) {
  return e.message.replace(location.origin, 'ORIGIN');
}`
	for _, c := range []struct{ variant, want string }{
		{"ok", "ready: 1"},
		{"runtime", `modelcontext: modelcontext-runtime.js ("ORIGIN/sri/runtime/modelcontext-runtime.js") does not match the SHA-384 hash that modelcontext.js carries for it (the script tag has an integrity attribute): a changed byte, or a file from another build; serve the modelcontext-runtime.js of the same build as modelcontext.js`},
		{"wasm", `modelcontext: modelcontext.wasm ("ORIGIN/sri/wasm/modelcontext.wasm") does not match the SHA-384 hash that modelcontext.js carries for it (the script tag has an integrity attribute): a changed byte, or a file from another build; serve the modelcontext.wasm of the same build as modelcontext.js`},
		{"none", "ready: 1"},
	} {
		t.Run(c.variant, func(t *testing.T) {
			tab := browsertest.NewTab(t)
			tab.Timeout = 60 * time.Second
			tab.Navigate(browsertest.URL(t, "/sri/"+c.variant+"/page.html"))
			var got string
			tab.Eval("(async () => {\n"+body+"\n})()", &got)
			if got != c.want {
				t.Errorf("ready: %s\nwant: %s\n%s", got, c.want, tab.ConsoleText())
			}
		})
	}
}
