package registry

// table holds the current registrations by ID: an open-addressing hash table
// with linear probing. The loader assigns IDs in sequence, so an ID masked by
// the table's size spreads them without hashing; a Go map would hash each
// int32 in software on WebAssembly, a measurable share of every push.
type table struct {
	slots []*entry // a power of two long, or empty
	n     int
}

func (t *table) home(id ID) int { return int(uint32(id)) & (len(t.slots) - 1) }

// get returns the registration id, or nil.
func (t *table) get(id ID) *entry {
	if t.n == 0 {
		return nil
	}
	mask := len(t.slots) - 1
	for i := t.home(id); ; i = (i + 1) & mask {
		e := t.slots[i]
		if e == nil || e.id == id {
			return e
		}
	}
}

// put adds e, whose ID is not in the table.
func (t *table) put(e *entry) {
	if (t.n+1)*4 > len(t.slots)*3 {
		t.grow()
	}
	mask := len(t.slots) - 1
	i := t.home(e.id)
	for t.slots[i] != nil {
		i = (i + 1) & mask
	}
	t.slots[i] = e
	t.n++
}

func (t *table) grow() {
	old := t.slots
	t.slots = make([]*entry, max(8, 2*len(old)))
	t.n = 0
	for _, e := range old {
		if e != nil {
			t.put(e)
		}
	}
}

// delete removes registration id, if it is there, shifting back the
// entries that probed past its slot.
func (t *table) delete(id ID) {
	if t.n == 0 {
		return
	}
	mask := len(t.slots) - 1
	i := t.home(id)
	for {
		e := t.slots[i]
		if e == nil {
			return
		}
		if e.id == id {
			break
		}
		i = (i + 1) & mask
	}
	t.slots[i] = nil
	t.n--
	for j := (i + 1) & mask; t.slots[j] != nil; j = (j + 1) & mask {
		k := t.home(t.slots[j].id)
		// The entry at j may move into the hole at i unless its home lies
		// cyclically in (i, j].
		if i <= j && (k <= i || k > j) || i > j && k <= i && k > j {
			t.slots[i], t.slots[j] = t.slots[j], nil
			i = j
		}
	}
}
