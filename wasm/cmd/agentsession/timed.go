package main

import (
	"fmt"
	"net/http"
	"path/filepath"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// The timed rows, on testdata/agentsession/bench.html: the push arms are
// paired with the plain push of the same round.
var timedRows = []struct{ Key, Label, Eval string }{
	{"push-plain", "push of a 10 KB value, one listener", `Micro.push("plain", %d)`},
	{"push-handler", "  the same, one subscribeResource handler too", `Micro.push("handler", %d)`},
	{"push-patch", "  the same, one {patch: true} handler too", `Micro.push("patch", %d)`},
	{"changes-recent", "changesSince, 1,003 resources, 10 updated since", `Micro.changes("recent", %d)`},
	{"changes-all", "changesSince, 1,003 resources, since 0", `Micro.changes("all", %d)`},
}

// batchMs is what a batch should take at the least: performance.now()
// counts in 100 µs steps on a page that is not cross-origin isolated.
const batchMs = 20

// runTimed measures the timed rows in a tab of br, o.rounds rounds, the
// rows in turns (which goes first rotates).
func runTimed(br *browsertest.Browser, root string, o options, res *Results, logf func(string, ...any)) error {
	srv := browsertest.NewServer(func(mux *http.ServeMux) {
		mux.Handle("/agentsession/", http.StripPrefix("/agentsession/", http.FileServer(http.Dir(filepath.Join(root, "testdata", "agentsession")))))
	})
	defer srv.Close()
	tab, closeTab, err := br.ProgramTab()
	if err != nil {
		return err
	}
	defer closeTab()
	var failed error
	if err := browsertest.Try(func() { failed = timed(tab, srv.URL("/agentsession/bench.html"), o, res, logf) }); err != nil {
		return fmt.Errorf("%w\n%s", err, tab.ConsoleText())
	}
	return failed
}

func timed(tab *browsertest.Tab, url string, o options, res *Results, logf func(string, ...any)) error {
	tab.Timeout = time.Minute
	tab.Navigate(url)
	tab.Eval(`Micro.ready.then(() => true)`, nil)
	var setup struct{ Resources, ValueBytes int }
	tab.Eval(`Micro.setup()`, &setup)
	if setup.Resources != 1003 || setup.ValueBytes < 9500 || setup.ValueBytes > 10500 {
		return fmt.Errorf("bench.html set up %d resources and a %d-byte value, want 1,003 and about 10 KB", setup.Resources, setup.ValueBytes)
	}
	batch := func(row, n int) float64 {
		var ms float64
		tab.Eval(fmt.Sprintf(timedRows[row].Eval, n), &ms)
		return ms
	}
	// Warm up, then find each row's batch size: doubled until a batch takes
	// batchMs (the push arms share the plain push's, so that they pair).
	for range 3 {
		for i := range timedRows {
			batch(i, 64)
		}
	}
	ops := make([]int, len(timedRows))
	for i := range timedRows {
		if i == 1 || i == 2 {
			ops[i] = ops[0]
			continue
		}
		n := 16
		for batch(i, n) < batchMs && n < 1<<16 {
			n *= 2
		}
		ops[i] = n
	}
	us := make([][]float64, len(timedRows))
	for r := range o.rounds {
		if r%10 == 0 {
			logf("timed round %d/%d", r+1, o.rounds)
		}
		for k := range timedRows {
			i := (k + r) % len(timedRows)
			us[i] = append(us[i], batch(i, ops[i])*1e3/float64(ops[i]))
		}
	}
	for i, row := range timedRows {
		t := Timed{Key: row.Key, Label: row.Label, Ops: ops[i], Us: summarize(us[i])}
		if i == 1 || i == 2 {
			p := paired(us[i], us[0])
			t.Paired = &p
		}
		res.Timed = append(res.Timed, t)
	}
	return nil
}
