package registry

import "math/bits"

// table holds entries in an open-addressing hash table with linear probing:
// the current registrations by ID, or the current concrete resources by
// uri. A uri's home is its hash (entry.hash). An ID's is the top bits of
// the ID times 2^32/φ (Fibonacci hashing): the loader assigns IDs in
// sequence, and an ID masked by the table's size would put the registrations
// that stay in one run of slots, which every new ID that masks into it
// probes to the end of. A Go map would hash in software on WebAssembly, a
// large part of every register + unregister (testdata/bench/PERFORMANCE.md).
type table struct {
	slots []*entry // a power of two long, or empty
	n     int
	uris  bool  // keyed by uri, not by ID
	shift uint8 // 32 - log2(len(slots)), for an ID's home
}

func (t *table) home(e *entry) int {
	if t.uris {
		return int(e.hash) & (len(t.slots) - 1)
	}
	return t.idHome(e.id)
}

// idHome is the home of an ID in a table keyed by ID.
func (t *table) idHome(id ID) int {
	return int(uint32(id) * 0x9E3779B9 >> t.shift)
}

// get returns the registration id, or nil (a table keyed by ID).
func (t *table) get(id ID) *entry {
	if t.n == 0 {
		return nil
	}
	mask := len(t.slots) - 1
	for i := t.idHome(id); ; i = (i + 1) & mask {
		e := t.slots[i]
		if e == nil || e.id == id {
			return e
		}
	}
}

// find returns the entry of uri, whose hash is h, or nil (a table keyed by
// uri).
func (t *table) find(uri string, h uint32) *entry {
	if t.n == 0 {
		return nil
	}
	mask := len(t.slots) - 1
	for i := int(h) & mask; ; i = (i + 1) & mask {
		e := t.slots[i]
		if e == nil || e.hash == h && e.uri == uri {
			return e
		}
	}
}

// put adds e, whose key is not in the table.
func (t *table) put(e *entry) {
	if (t.n+1)*4 > len(t.slots)*3 {
		t.grow()
	}
	mask := len(t.slots) - 1
	i := t.home(e)
	for t.slots[i] != nil {
		i = (i + 1) & mask
	}
	t.slots[i] = e
	t.n++
}

// putNew adds e unless an entry of its ID is there (a table keyed by ID),
// and reports whether it did: one probe where get and put would make two.
func (t *table) putNew(e *entry) bool {
	if (t.n+1)*4 > len(t.slots)*3 {
		t.grow()
	}
	mask := len(t.slots) - 1
	i := t.home(e)
	for ; t.slots[i] != nil; i = (i + 1) & mask {
		if t.slots[i].id == e.id {
			return false
		}
	}
	t.slots[i] = e
	t.n++
	return true
}

func (t *table) grow() {
	old := t.slots
	t.slots = make([]*entry, max(8, 2*len(old)))
	t.shift = uint8(32 - bits.TrailingZeros(uint(len(t.slots))))
	t.n = 0
	for _, e := range old {
		if e != nil {
			t.put(e)
		}
	}
}

// replace puts e in the slot of old, whose key e has.
func (t *table) replace(old, e *entry) {
	mask := len(t.slots) - 1
	i := t.home(old)
	for t.slots[i] != old {
		i = (i + 1) & mask
	}
	t.slots[i] = e
}

// remove takes e out, if it is there, shifting back the entries that probed
// past its slot.
func (t *table) remove(e *entry) {
	if t.n == 0 {
		return
	}
	mask := len(t.slots) - 1
	i := t.home(e)
	for t.slots[i] != e {
		if t.slots[i] == nil {
			return
		}
		i = (i + 1) & mask
	}
	t.slots[i] = nil
	t.n--
	for j := (i + 1) & mask; t.slots[j] != nil; j = (j + 1) & mask {
		k := t.home(t.slots[j])
		// The entry at j may move into the hole at i unless its home lies
		// cyclically in (i, j].
		if i <= j && (k <= i || k > j) || i > j && k <= i && k > j {
			t.slots[i], t.slots[j] = t.slots[j], nil
			i = j
		}
	}
}

// hashURI is FNV-1a, a uri's home in a table keyed by uri.
func hashURI(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint32(s[i])) * 16777619
	}
	return h
}
