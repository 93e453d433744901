package main

import (
	"context"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/modelcontext"
	"github.com/modelcontext-go/modelcontext/wasm/modelcontext/modelcontexttest"
)

// shown records what share asks the card to show.
type shown struct {
	estimates []estimate
	resources int
}

func (s *shown) render(e estimate) { s.estimates = append(s.estimates, e) }
func (s *shown) shared(n int)      { s.resources = n }

// TestShare runs the app's use of the package on the host: the page's
// checkout draft is stood in for by a resource the test registers, the
// page by modelcontexttest's.
func TestShare(t *testing.T) {
	page := modelcontexttest.NewPage(t)
	ctx := context.Background()
	d := draft{Country: "DE", Shipping: "standard"}
	var typed modelcontext.Notifier
	if _, err := modelcontext.Register(modelcontext.Resource{URI: "state://checkout-draft", Name: "checkout-draft",
		Get: func() (any, error) { return d, nil }, Watch: typed.Watch}); err != nil {
		t.Fatal(err)
	}
	var s shown
	if err := share(ctx, &s); err != nil {
		t.Fatal(err)
	}
	if got, err := modelcontext.Read[estimate](ctx, "state://delivery"); err != nil || got != (estimate{"DE", "standard", 3, 5, 0}) {
		t.Errorf("the first estimate: %+v, %v", got, err)
	}
	if s.resources != 2 || len(s.estimates) != 1 {
		t.Errorf("shown %+v, want one estimate and two resources", s)
	}

	pushes := 0
	stop, err := modelcontext.Subscribe("state://delivery", func(estimate, error) { pushes++ })
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	d.Shipping = "express"
	typed.Notify()
	d.Country = "DE" // typing in the address: the draft changes, the estimate does not
	typed.Notify()
	page.Wait()
	if got, err := modelcontext.Read[estimate](ctx, "state://delivery"); err != nil || got != (estimate{"DE", "express", 1, 2, 650}) || pushes != 1 {
		t.Errorf("after choosing express: %+v, %v, %d pushes of the estimate (want 1)", got, err, pushes)
	}
	if last := s.estimates[len(s.estimates)-1]; last.Shipping != "express" {
		t.Errorf("the card shows %+v", last)
	}
}

func TestEstimateFor(t *testing.T) {
	for _, c := range []struct {
		d    draft
		want estimate
	}{
		{draft{}, estimate{"NL", "standard", 3, 5, 0}},
		{draft{"NL", "express"}, estimate{"NL", "express", 1, 1, 650}},
		{draft{"GB", "standard"}, estimate{"GB", "standard", 5, 7, 0}},
		{draft{"XX", "express"}, estimate{"NL", "express", 1, 1, 650}},
	} {
		if got := estimateFor(c.d); got != c.want {
			t.Errorf("estimateFor(%+v) = %+v, want %+v", c.d, got, c.want)
		}
	}
}
