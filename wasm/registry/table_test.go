package registry

import (
	"math/rand/v2"
	"testing"
)

// TestTableAgainstAMap runs random puts, gets and deletes against a Go map.
func TestTableAgainstAMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var tab table
	want := map[ID]*entry{}
	next := ID(0)
	for step := 0; step < 200000; step++ {
		switch op := rng.IntN(10); {
		case op < 4:
			next++
			e := &entry{id: next}
			if !tab.putNew(e) {
				t.Fatalf("step %d: putNew(%d) refused a new ID", step, next)
			}
			if tab.putNew(&entry{id: next}) {
				t.Fatalf("step %d: putNew(%d) took an ID already there", step, next)
			}
			want[next] = e
		case op < 7 && next > 0:
			id := ID(rng.IntN(int(next)) + 1)
			if e := tab.get(id); e != nil {
				tab.remove(e)
			} else {
				tab.remove(&entry{id: id}) // not there: nothing changes
			}
			delete(want, id)
		default:
			id := ID(rng.IntN(int(next)+2)) - 1
			if got := tab.get(id); got != want[id] {
				t.Fatalf("step %d: get(%d) = %v, want %v", step, id, got, want[id])
			}
		}
		if tab.n != len(want) {
			t.Fatalf("step %d: %d entries, want %d", step, tab.n, len(want))
		}
	}
	for id, e := range want {
		if tab.get(id) != e {
			t.Fatalf("get(%d) lost", id)
		}
	}
}
