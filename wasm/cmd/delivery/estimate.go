package main

import (
	"context"
	"sync"

	"github.com/modelcontext-go/modelcontext/wasm/modelcontext"
)

// draft is what the estimate needs of the checkout draft.
type draft struct {
	Country  string `json:"country"`
	Shipping string `json:"shipping"`
}

// estimate is the value of state://delivery.
type estimate struct {
	Country       string `json:"country"`
	Shipping      string `json:"shipping"`
	MinDays       int    `json:"minDays"` // working days from the order
	MaxDays       int    `json:"maxDays"`
	ShippingCents int    `json:"shippingCents"`
}

type destination struct {
	name              string
	standard, express [2]int // working days, fewest and most
}

var destinations = map[string]destination{
	"NL": {"the Netherlands", [2]int{3, 5}, [2]int{1, 1}}, // as the checkout's speed choice says
	"BE": {"Belgium", [2]int{3, 5}, [2]int{1, 2}},
	"DE": {"Germany", [2]int{3, 5}, [2]int{1, 2}},
	"FR": {"France", [2]int{4, 6}, [2]int{2, 3}},
	"GB": {"the United Kingdom", [2]int{5, 7}, [2]int{2, 3}},
}

func estimateFor(d draft) estimate {
	dest, ok := destinations[d.Country]
	if !ok {
		d.Country, dest = "NL", destinations["NL"]
	}
	e := estimate{Country: d.Country, Shipping: "standard", MinDays: dest.standard[0], MaxDays: dest.standard[1]}
	if d.Shipping == "express" {
		e.Shipping, e.MinDays, e.MaxDays, e.ShippingCents = "express", dest.express[0], dest.express[1], 650
	}
	return e
}

// view is what the app shows: the estimate, and how many resources the
// page shares.
type view interface {
	render(e estimate)
	shared(n int)
}

// share publishes the estimate as state://delivery and keeps it, and v,
// up to date with the checkout draft (state://checkout-draft, the page's)
// and the page's list of resources. It is the app's whole use of package
// modelcontext, and plain Go: its test runs on the host, on
// modelcontexttest's page.
func share(ctx context.Context, v view) error {
	var mu sync.Mutex
	current := estimateFor(draft{})
	var changed modelcontext.Notifier
	if _, err := modelcontext.Register(modelcontext.Resource{
		URI:         "state://delivery",
		Name:        "delivery",
		Title:       "Delivery estimate",
		Description: "When an order placed now would arrive (working days) and what shipping costs (EUR cents), for the country and speed in the checkout draft. Worked out by the page's Go app.",
		Get: func() (any, error) {
			mu.Lock()
			defer mu.Unlock()
			return current, nil
		},
		Watch: changed.Watch,
	}); err != nil {
		return err
	}
	set := func(d draft) estimate {
		mu.Lock()
		defer mu.Unlock()
		current = estimateFor(d)
		return current
	}

	// Follow the draft: every change of it may change the estimate. Notify
	// every time; the module sends the estimate on only when it changed.
	if _, err := modelcontext.Subscribe("state://checkout-draft", func(d draft, err error) {
		if err == nil {
			v.render(set(d))
			changed.Notify()
		}
	}); err != nil {
		return err
	}
	d, err := modelcontext.Read[draft](ctx, "state://checkout-draft")
	if err != nil {
		d = draft{}
	}
	v.render(set(d))

	// How many resources the page shares now, kept up to date.
	if _, err := modelcontext.OnListChanged(func(e *modelcontext.ListChangedEvent) { v.shared(len(e.Resources)) }); err != nil {
		return err
	}
	if list, err := modelcontext.Resources(); err == nil {
		v.shared(len(list))
	}
	return nil
}
