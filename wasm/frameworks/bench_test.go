package frameworks

import (
	"flag"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/frameworks/frameworktest"
)

var pushCost = flag.Bool("push-cost", false, "run TestPushCost (make bench)")

// TestPushCost measures, in one page of the vite-react production build
// (bench.html), what a push costs through useResource against the same
// push through a hand-written registerResource in effects: each a React
// commit with a new value, its effects, the module's push and a
// resourceupdated event. The kinds run in alternating rounds; the medians
// are compared. A push with no React (onChange called by hand) shows what
// React itself costs. Run by make bench:
//
//	go test -count=1 -run '^TestPushCost$' -v ./wasm/frameworks -args -push-cost
func TestPushCost(t *testing.T) {
	if !*pushCost {
		t.Skip("a measurement: make bench runs it (-args -push-cost)")
	}
	dir := appDir("vite-react")
	frameworktest.InstalledPackage(t, dir)
	p := open(t, serve(t, filepath.Join(dir, "dist"))+"/bench.html")
	p.eval(`Bench.ready`, nil)
	const rounds, n = 41, 1000
	kinds := []string{"hook", "hand", "plain"}
	per := map[string][]float64{}
	for _, k := range kinds { // warm-up
		p.eval(fmt.Sprintf(`Bench.run(%q, %d)`, k, n), nil)
	}
	for r := 0; r < rounds; r++ {
		order := kinds
		if r%2 == 1 {
			order = []string{"hand", "hook", "plain"}
		}
		for _, k := range order {
			var ms float64
			p.eval(fmt.Sprintf(`Bench.run(%q, %d)`, k, n), &ms)
			per[k] = append(per[k], ms*1e3/n)
		}
	}
	median := func(k string) float64 {
		s := slices.Clone(per[k])
		slices.Sort(s)
		return s[len(s)/2]
	}
	hook, hand, plain := median("hook"), median("hand"), median("plain")
	t.Logf("push of a ~40-byte value, median of %d rounds of %d:", rounds, n)
	t.Logf("  useResource (React commit + push)        %6.2f µs", hook)
	t.Logf("  hand-written registerResource in effects %6.2f µs", hand)
	t.Logf("  onChange called by hand, no React        %6.2f µs", plain)
	t.Logf("  useResource / hand-written: %.2fx", hook/hand)
	if hook/hand > 1.2 {
		t.Errorf("a push through useResource costs %.2fx the hand-written one, want at most 1.2x", hook/hand)
	}
	p.noErrors()
}
