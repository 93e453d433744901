package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Model-based test of wasm/CONTRACT.md §3–§4. testdata/pages/model.js holds a
// small executable model of the contract, a driver that performs the same
// operations on the real document.modelContext, and a seeded generator of
// operation sequences (register a new uri or replace one, unregister, stale
// unregister, onChange with a new, equal or keyless value, sync / async /
// throwing getters with async results settled out of order, reads of known and
// unknown uris, subscribeResource / unsubscribe, throwing and re-entrant
// handlers, invalid descriptors: those of the validation table,
// validationCases, with its messages). After every operation the trace the page saw
// (get calls, subscribe calls, teardowns, resourceupdated events, handler
// calls, resourcelistchanged events, read outcomes, console errors and
// warnings, in order, with the identity of every value) and the getResources()
// snapshot must equal the model's prediction, and the loader's cache of Go's
// answers must hold what Go lists (TestTheLoaderCacheFollowsGo).
//
// It runs against the module and, as a check of the model itself, against
// the reference. Environment:
//
//	MODEL_SEQUENCES=n  sequences to run (default 2000)
//	MODEL_OPS=n        operations per sequence, before its cleanup (default 40)
//	MODEL_SEED=n       replay sequence n alone and log every operation and its trace
func TestModel(t *testing.T) {
	sequences := envInt(t, "MODEL_SEQUENCES", 2000)
	length := envInt(t, "MODEL_OPS", 40)
	seed, replay := os.LookupEnv("MODEL_SEED")
	eachImpl(t, func(t *testing.T, impl string) {
		// The module runs as its test build, whose cacheDrift the model
		// checks after every operation (testdata/pages/model.js).
		query := ""
		if impl == "wasm" {
			requireTestBuild(t)
			query = testBuild
		}
		p := open(t, impl, "/model.html", query)
		p.Timeout = 120 * time.Second
		if impl == "wasm" {
			var hooked bool
			p.Eval(`typeof document.modelContext[Symbol.for('modelcontext.internals')].cacheDrift === 'function'`, &hooked)
			if !hooked {
				t.Fatal("the test build has no internals.cacheDrift: the model would not check the loader's cache against Go")
			}
		}
		// Its invalid descriptors are the validation table's, which the
		// loader and the reference follow (TestRegisterResourceValidation).
		var used int
		p.Eval(fmt.Sprintf("window.ModelTest.useValidationTable(%s, %s)", jsString(regPrefix), validationTableJSON()), &used)
		if used != len(validationCases) {
			t.Fatalf("the model took %d of the validation table's %d cases", used, len(validationCases))
		}
		if replay {
			n, err := strconv.Atoi(seed)
			if err != nil {
				t.Fatalf("MODEL_SEED=%q: %v", seed, err)
			}
			var r modelResult
			p.Eval(fmt.Sprintf("window.ModelTest.replay(%d, %d)", n, length), &r)
			var b strings.Builder
			for i, e := range r.Log {
				fmt.Fprintf(&b, "  %3d %s\n", i, e.Op)
				for _, l := range e.Trace {
					fmt.Fprintf(&b, "        %s\n", printable(l))
				}
			}
			t.Logf("seed %d, %d operations:\n%s", n, r.Count, b.String())
			if !r.OK {
				t.Errorf("%s: %s", impl, r.describe())
			}
			return
		}
		const batch = 250 // sequences per evaluation
		start := time.Now()
		ran, ops := 0, 0
		tally := map[string]int{}
		for from := 1; from <= sequences; from += batch {
			count := min(batch, sequences-from+1)
			var got struct {
				Ran, Ops int
				Tally    map[string]int
				Failure  *modelResult
			}
			p.Eval(fmt.Sprintf("window.ModelTest.run(%d, %d, %d)", from, count, length), &got)
			ran += got.Ran
			ops += got.Ops
			for k, n := range got.Tally {
				tally[k] += n
			}
			if got.Failure != nil {
				t.Fatalf("%s: the model and the implementation disagree after %d sequences:\n%s\nreplay: MODEL_SEED=%d MODEL_OPS=%d CHROMIUM=$PWD/.cache/bin/chromium go test ./wasm/e2e/ -run 'TestModel/%s' -v\n%s",
					impl, ran, got.Failure.describe(), got.Failure.Seed, length, impl, consoleTail(p, 30))
			}
		}
		t.Logf("%s: %d sequences, %d operations (%d generated per sequence plus cleanup), all as the model predicts, in %v",
			impl, ran, ops, length, time.Since(start).Round(time.Millisecond))
		if testing.Verbose() {
			keys := make([]string, 0, len(tally))
			for k := range tally {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			var b strings.Builder
			for _, k := range keys {
				fmt.Fprintf(&b, "  %7d  %s\n", tally[k], k)
			}
			t.Logf("operations and predicted trace entries, by kind:\n%s", b.String())
		}
	})
}

// modelResult is what model.js returns for one sequence.
type modelResult struct {
	OK    bool
	Seed  int
	Count int
	Index int
	Ops   []string
	Want  json.RawMessage
	Got   json.RawMessage
	Log   []struct {
		Op    json.RawMessage
		Trace []string
	}
}

func (r *modelResult) describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "seed %d, operation %d:\n", r.Seed, r.Index)
	for i, o := range r.Ops {
		mark := "  "
		if i == r.Index {
			mark = "=>"
		}
		fmt.Fprintf(&b, "  %s %3d %s\n", mark, i, o)
	}
	var want, got struct {
		Trace     []string
		Resources []string
	}
	if json.Unmarshal(r.Want, &want) != nil || json.Unmarshal(r.Got, &got) != nil || (want.Trace == nil && got.Trace == nil) {
		fmt.Fprintf(&b, "  want %s\n  got  %s\n", r.Want, r.Got)
		return b.String()
	}
	b.WriteString("  trace (model | page):\n")
	for i := 0; i < max(len(want.Trace), len(got.Trace)); i++ {
		w, g := at(want.Trace, i), at(got.Trace, i)
		mark := "  "
		if w != g {
			mark = "!="
		}
		fmt.Fprintf(&b, "    %s %-40s | %s\n", mark, printable(w), printable(g))
	}
	if strings.Join(want.Resources, "\n") != strings.Join(got.Resources, "\n") {
		fmt.Fprintf(&b, "  getResources() (uri|name|title|mimeType|subscribable):\n    model: %q\n    page:  %q\n", want.Resources, got.Resources)
	}
	return b.String()
}

// consoleTail is the end of the page console (the model's page keeps the
// console errors of a sequence in its trace instead).
func consoleTail(p *page, n int) string {
	lines := p.Console()
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return "  page console (last lines):\n    " + strings.Join(lines, "\n    ")
}

// printable escapes control characters (one of the uris holds a NUL).
func printable(s string) string {
	q := strconv.QuoteToGraphic(s)
	return q[1 : len(q)-1]
}

func at(s []string, i int) string {
	if i < len(s) {
		return s[i]
	}
	return "(nothing)"
}

// envInt reads a positive integer from the environment, or returns def.
func envInt(t *testing.T, name string, def int) int {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		t.Fatalf("%s=%q: want a positive integer", name, v)
	}
	return n
}
