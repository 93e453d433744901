package stats

import (
	"math"
	"testing"
)

func TestQuantile(t *testing.T) {
	s := []float64{1, 2, 4, 8}
	for _, c := range []struct{ q, want float64 }{
		{0, 1}, {0.5, 3}, {0.25, 1.75}, {0.75, 5}, {1, 8},
	} {
		if got := Quantile(s, c.q); got != c.want {
			t.Errorf("Quantile(%v, %v) = %v, want %v", s, c.q, got, c.want)
		}
	}
	if got := Quantile([]float64{7}, 0.5); got != 7 {
		t.Errorf("one sample: %v, want 7", got)
	}
	if got := Quantile(nil, 0.5); !math.IsNaN(got) {
		t.Errorf("no samples: %v, want NaN", got)
	}
}
