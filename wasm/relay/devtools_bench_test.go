package relay

import (
	"bytes"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
	"github.com/modelcontext-go/modelcontext/wasm/internal/stats"
)

var devtoolsCost = flag.Bool("devtools-cost", false, "run TestDevToolsPushCost (make bench)")

// hookCheck is how the built scripts test whether a hook listens
// (js/loader/inspect.js: devtools.hook !== null, its name minified).
var hookCheck = regexp.MustCompile(`[A-Za-z_$][\w$]*\.hook!==null`)

// noChannel serves dist/ with every check of the inspection channel in the
// two classic scripts replaced by false: the module as if built without the
// channel, the code around the checks unchanged. A push passes no check
// (js/loader/runtime/observe.js swaps its observed functions in only while a
// hook listens), so what this arm leaves out is the seams that check: a
// registration, a read, an MCP message, the tools, boot.
func noChannel(t *testing.T, root string) http.Handler {
	t.Helper()
	files := map[string][]byte{}
	for _, name := range []string{"modelcontext.js", "modelcontext-runtime.js"} {
		b, err := os.ReadFile(filepath.Join(root, "dist", name))
		if err != nil {
			t.Fatal(err)
		}
		n := len(hookCheck.FindAll(b, -1))
		if n < 1 {
			t.Fatalf("dist/%s has %d checks of the inspection hook (%s), want at least 1: the build's form changed", name, n, hookCheck)
		}
		files[name] = hookCheck.ReplaceAll(b, []byte("false"))
	}
	dist := http.FileServer(http.Dir(filepath.Join(root, "dist")))
	return http.StripPrefix("/nochannel/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, ok := files[strings.TrimPrefix(r.URL.Path, "/")]
		if !ok {
			dist.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/javascript")
		http.ServeContent(w, r, r.URL.Path, time.Time{}, bytes.NewReader(b))
	}))
}

// TestDevToolsPushCost measures what the Model Context panel costs a push,
// in one page (testdata/devtools/bench.html) with three arms side by side,
// each a frame with its own module: no panel; the panel's hook
// (js/extension/hook.js) attached and recording, with the panel's poll of
// its buffer (hook.take) after each batch; and the module with the
// channel's checks replaced by false. The push is of a ten-item cart
// (about 500 bytes of JSON), a new value each time, heard by one
// resourceupdated listener; a push whose value did not change (suppressed)
// is measured the same way. The arms run in rotating order, round after
// round; each ratio is paired (the same round's two arms), printed as its
// median and quartiles. Nothing here fails on a time: the numbers go into
// testdata/bench/PERFORMANCE.md. Run by make bench:
//
//	go test -count=1 -run '^TestDevToolsPushCost$' -v ./wasm/relay -args -devtools-cost
func TestDevToolsPushCost(t *testing.T) {
	if !*devtoolsCost {
		t.Skip("a measurement: make bench runs it (-args -devtools-cost)")
	}
	requireBuild(t)
	root := browsertest.RepoRoot()
	srv := browsertest.NewServer(func(mux *http.ServeMux) {
		mux.Handle("/devtools/", http.StripPrefix("/devtools/", http.FileServer(http.Dir(filepath.Join(root, "testdata", "devtools")))))
		mux.Handle("/extension/", http.StripPrefix("/extension/", http.FileServer(http.Dir(filepath.Join(root, "js", "extension")))))
		mux.Handle("/nochannel/", noChannel(t, root))
	})
	t.Cleanup(srv.Close)
	tab := browsertest.SharedBrowser(t).Tab(t)
	tab.Timeout = timeout
	tab.Navigate(srv.URL("/devtools/bench.html"))
	tab.Eval(`Bench.ready`, nil)
	var hooked []bool
	tab.Eval(`["none", "hook", "channel"].map((id) => Bench.arm(id).hooked)`, &hooked)
	if !slices.Equal(hooked, []bool{false, true, false}) {
		t.Fatalf("the arms' hooks: %v, want only the hook arm's", hooked)
	}

	// performance.now() counts in 100 µs steps here (no cross-origin
	// isolation): a batch runs for several ms.
	const rounds, nPush, nSame = 41, 2000, 20000
	arms := []string{"none", "hook", "channel"}
	type take struct {
		Ms     float64
		Events int
	}
	type batch struct {
		Push, Same         float64 // ms of the pushes
		PushTake, SameTake take    // the panel's poll after each
	}
	run := func(arm string) batch {
		var b batch
		tab.Eval(fmt.Sprintf(`(() => { const a = Bench.arm(%q), b = {};
  b.Push = a.push(%d); b.PushTake = a.take(); b.Same = a.same(%d); b.SameTake = a.take(); return b; })()`, arm, nPush, nSame), &b)
		return b
	}
	for _, a := range arms { // warm-up
		for range 3 {
			run(a)
		}
	}
	// µs per push, per round; for the hook arm, also the panel's poll after
	// the batch, per push of the batch (a poll's share of each push).
	push, same := map[string][]float64{}, map[string][]float64{}
	var pushTake, sameTake []float64
	var pushEvents, sameEvents []float64
	for r := range rounds {
		for k := range arms {
			a := arms[(k+r)%len(arms)]
			b := run(a)
			push[a] = append(push[a], b.Push*1e3/nPush)
			same[a] = append(same[a], b.Same*1e3/nSame)
			if a == "hook" {
				if b.PushTake.Events != nPush || b.SameTake.Events < 1 {
					t.Fatalf("the hook recorded %d events for %d pushes and %d for %d unchanged ones", b.PushTake.Events, nPush, b.SameTake.Events, nSame)
				}
				pushTake = append(pushTake, b.PushTake.Ms*1e3/nPush)
				sameTake = append(sameTake, b.SameTake.Ms*1e3/nSame)
				pushEvents = append(pushEvents, float64(b.PushTake.Events))
				sameEvents = append(sameEvents, float64(b.SameTake.Events))
			}
		}
	}
	median := func(s []float64) float64 {
		s = slices.Clone(s)
		slices.Sort(s)
		return stats.Quantile(s, 0.5)
	}
	// paired is the median and quartiles over the rounds of num/den.
	paired := func(num, den []float64) string {
		r := make([]float64, len(num))
		for i := range num {
			r[i] = num[i] / den[i]
		}
		slices.Sort(r)
		return fmt.Sprintf("%.2f× (quartiles %.2f–%.2f)", stats.Quantile(r, 0.5), stats.Quantile(r, 0.25), stats.Quantile(r, 0.75))
	}
	plus := func(a, b []float64) []float64 {
		s := make([]float64, len(a))
		for i := range a {
			s[i] = a[i] + b[i]
		}
		return s
	}
	recorded := plus(push["hook"], pushTake)
	recordedSame := plus(same["hook"], sameTake)
	t.Logf("a push with and without the DevTools panel, µs per push, median of %d rounds:", rounds)
	t.Logf("  %-50s %8s %8s %8s", "", "none", "hook", "channel")
	t.Logf("  %-50s %8.3f %8.3f %8.3f", fmt.Sprintf("push of a new cart (~500 B), dispatched (%d)", nPush), median(push["none"]), median(push["hook"]), median(push["channel"]))
	t.Logf("  %-50s %8.3f %8.3f %8.3f", fmt.Sprintf("push of an unchanged value, suppressed (%d)", nSame), median(same["none"]), median(same["hook"]), median(same["channel"]))
	t.Logf("  the panel's poll (hook.take) after a batch, per push: %.3f µs dispatched (%.0f events), %.4f µs suppressed (%.0f events)",
		median(pushTake), median(pushEvents), median(sameTake), median(sameEvents))
	t.Logf("  dispatched push, panel recording / closed:           %s", paired(push["hook"], push["none"]))
	t.Logf("  the same, with its share of the panel's poll:        %s", paired(recorded, push["none"]))
	t.Logf("  suppressed push, panel recording / closed:           %s", paired(same["hook"], same["none"]))
	t.Logf("  the same, with its share of the panel's poll:        %s", paired(recordedSame, same["none"]))
	t.Logf("  dispatched push, closed / built without the channel: %s", paired(push["none"], push["channel"]))
	t.Logf("  suppressed push, closed / built without the channel: %s", paired(same["none"], same["channel"]))
}
