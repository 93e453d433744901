package main

import (
	"math"
	"slices"

	"github.com/modelcontext-go/modelcontext/wasm/internal/stats"
)

func wallOf(s []sample) []float64 {
	out := make([]float64, len(s))
	for i, x := range s {
		out[i] = x.wall
	}
	return out
}

func cpuOf(s []sample) []float64 {
	out := make([]float64, len(s))
	for i, x := range s {
		out[i] = x.cpu
	}
	return out
}

// medianCI returns an approximate 95% confidence interval of the median of
// s: median ± 1.57 × IQR / √n, the notches of a box plot.
func medianCI(s []float64) [2]float64 {
	if len(s) == 0 {
		return [2]float64{}
	}
	c := slices.Clone(s)
	slices.Sort(c)
	m, iqr := stats.Quantile(c, 0.5), stats.Quantile(c, 0.75)-stats.Quantile(c, 0.25)
	h := 1.57 * iqr / math.Sqrt(float64(len(c)))
	return [2]float64{round3(m - h), round3(m + h)}
}

// unsettled reports whether the target lies within the approximate 95%
// confidence interval of the median of the paired ratios, so that more
// rounds could change the verdict.
func unsettled(paired []float64, target float64) bool {
	if len(paired) < 3 {
		return true
	}
	ci := medianCI(paired)
	return ci[0] <= target && target <= ci[1]
}

// calibrate returns the ops per batch for a target batch time, given a
// function that runs one batch per implementation and returns µs per op.
//
// The first calls of a workload are slow (V8 compiles wasm functions lazily
// on their first call, then tiers them up in the background), so it warms
// up first, doubles the batch until the faster implementation's takes a
// quarter of the target, sizes it, and then runs batches of that size for at
// least warmMs before sizing it again on the warm numbers.
func calibrate(targetMs, maxMs float64, batch func(ops int) ([]float64, error)) (int, error) {
	const warmMs = 400.0
	size := func(per []float64) int {
		lo, hi := math.Inf(1), 0.0
		for _, us := range per {
			lo, hi = min(lo, us), max(hi, us)
		}
		n := int(math.Ceil(targetMs * 1000 / max(lo, 1e-3)))
		if hi*float64(n)/1000 > maxMs {
			n = int(maxMs * 1000 / hi)
		}
		return max(n, 3)
	}
	spent := func(per []float64, k int) float64 {
		ms := 0.0
		for _, us := range per {
			ms += us * float64(k) / 1000
		}
		return ms
	}
	for range 2 {
		if _, err := batch(4); err != nil {
			return 0, err
		}
	}
	var per []float64
	k := 4
	for ; ; k *= 2 {
		var err error
		if per, err = batch(k); err != nil {
			return 0, err
		}
		lo, hi := math.Inf(1), 0.0
		for _, us := range per {
			lo, hi = min(lo, us), max(hi, us)
		}
		if lo*float64(k)/1000 >= targetMs/4 || hi*float64(k)/1000 >= maxMs || k >= 1<<22 {
			break
		}
	}
	n := size(per)
	for total, runs := 0.0, 0; total < warmMs || runs < 2; runs++ {
		var err error
		if per, err = batch(n); err != nil {
			return 0, err
		}
		total += spent(per, n)
	}
	return size(per), nil
}
