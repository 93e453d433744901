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

// TestSequentialIDsSpread: the loader numbers registrations in sequence. With
// 1,000 of them staying registered while others come and go, no run of
// occupied slots grows long: a new ID never probes far. (An ID masked by the
// table's size made one run of all 1,000, which half of the IDs probed to
// its end.)
func TestSequentialIDsSpread(t *testing.T) {
	var tab table
	id := ID(0)
	for range 1000 {
		id++
		tab.putNew(&entry{id: id})
	}
	longest := 0
	for range 5000 {
		id++
		e := &entry{id: id}
		tab.putNew(e)
		longest = max(longest, longestRun(tab.slots))
		tab.remove(e)
	}
	if longest > 16 {
		t.Errorf("with 1,000 sequential IDs in %d slots, a run of %d occupied slots formed; want at most 16", len(tab.slots), longest)
	}
	if tab.n != 1000 {
		t.Fatalf("%d entries left, want 1000", tab.n)
	}
}

// longestRun is the longest run of occupied slots, around the end.
func longestRun(slots []*entry) int {
	longest, run := 0, 0
	for i := range 2 * len(slots) {
		if slots[i%len(slots)] == nil {
			run = 0
			continue
		}
		run++
		longest = max(longest, min(run, len(slots)))
	}
	return longest
}
