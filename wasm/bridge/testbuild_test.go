//go:build js && wasm && modelcontext_test

package bridge

import "testing"

// The tests of the test build's exports (testbuild.go); make test-wasm
// builds the bridge's tests with -tags modelcontext_test.

// TestGoListsInOrder: mc_list gives the current IDs in list order, a
// replacement in the place of the one it replaced.
func TestGoListsInOrder(t *testing.T) {
	fakeHost(t)
	registerThree(t)
	n, first, rest := words(t, mcList(0))
	if n != 2 || first != 3 || rest != "\x02\x00\x00\x00" {
		t.Errorf("mc_list(0) = %d IDs: %d %q, want 2: 3, 2", n, first, rest)
	}
	if n, _, _ := words(t, mcList(1)); n != 0 {
		t.Errorf("mc_list(1) = %d templates, want 0", n)
	}
}

// TestStatsCount: mc_stats counts registrations, consumer subscriptions and
// sub-channel sessions.
func TestStatsCount(t *testing.T) {
	fakeHost(t)
	registerThree(t)
	mcSubscribe(3)
	for which, want := range []int32{2, 1, 0} {
		if got := mcStats(int32(which)); got != want {
			t.Errorf("mc_stats(%d) = %d, want %d", which, got, want)
		}
	}
}
