//go:build js && wasm

// Command delivery is the demo shop's delivery estimate: a small Go
// WebAssembly app beside the page's JavaScript. It follows the checkout draft
// (state://checkout-draft, a resource the page's JavaScript registers), works
// out when an order would arrive, shows it in the checkout's #delivery card,
// and publishes it as its own resource, state://delivery, on the same
// document.modelContext: the agent panel lists the page's resources and the
// Go app's side by side.
//
// It is built by make build into dist/delivery.wasm and loaded by
// demo/go-app.js with Go's own wasm_exec.js. It uses
// github.com/modelcontext-go/modelcontext/wasm/modelcontext for the
// resources and honnef.co/go/js/dom/v2 for its DOM work and for listening to
// resourcelistchanged.
package main

import (
	"context"
	"strconv"
	"syscall/js"

	"github.com/modelcontext-go/modelcontext/wasm/modelcontext"
	"honnef.co/go/js/dom/v2"
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

// card is the #delivery element the app renders into.
type card struct {
	box, text, shared dom.Element
}

func (c card) render(e estimate) {
	days := strconv.Itoa(e.MinDays) + "–" + strconv.Itoa(e.MaxDays) + " working days"
	if e.MinDays == e.MaxDays {
		days = "next working day"
		if e.MinDays > 1 {
			days = strconv.Itoa(e.MinDays) + " working days"
		}
	}
	cost := "free"
	if e.ShippingCents > 0 {
		cost = "€" + strconv.Itoa(e.ShippingCents/100) + "." + strconv.Itoa(e.ShippingCents%100/10) + strconv.Itoa(e.ShippingCents%10)
	}
	speed := "Standard"
	if e.Shipping == "express" {
		speed = "Express"
	}
	c.text.SetTextContent(speed + " to " + destinations[e.Country].name + ": " + days + " · " + cost)
	c.box.SetAttribute("data-state", "ready")
	c.box.SetAttribute("data-shipping", e.Shipping)
	c.box.SetAttribute("data-country", e.Country)
}

func (c card) fail(err error) {
	c.text.SetTextContent("The estimate is unavailable: " + err.Error())
	c.box.SetAttribute("data-state", "error")
}

func main() {
	doc := dom.GetWindow().Document()
	box := doc.GetElementByID("delivery")
	if box == nil {
		return
	}
	c := card{box: box, text: box.QuerySelector(".delivery-text"), shared: box.QuerySelector(".delivery-shared")}
	ctx := context.Background()
	if err := modelcontext.Ready(ctx); err != nil {
		c.fail(err)
		return
	}

	current := estimateFor(draft{})
	var changed modelcontext.Notifier
	if _, err := modelcontext.Register(modelcontext.Resource{
		URI:         "state://delivery",
		Name:        "delivery",
		Title:       "Delivery estimate",
		Description: "When an order placed now would arrive (working days) and what shipping costs (EUR cents), for the country and speed in the checkout draft. Worked out by the page's Go app.",
		Get:         func() (any, error) { return current, nil },
		Watch:       changed.Watch,
	}); err != nil {
		c.fail(err)
		return
	}

	// Follow the draft: every change of it may change the estimate. Notify
	// every time; the module sends the estimate on only when it changed.
	follow := func(d draft) {
		current = estimateFor(d)
		c.render(current)
		changed.Notify()
	}
	if _, err := modelcontext.Subscribe("state://checkout-draft", func(d draft, err error) {
		if err == nil {
			follow(d)
		}
	}); err != nil {
		c.fail(err)
		return
	}
	if d, err := modelcontext.Read[draft](ctx, "state://checkout-draft"); err == nil {
		current = estimateFor(d)
	}
	c.render(current)

	// How many resources the page shares now: a plain dom/v2 listener on
	// document.modelContext (dom/v2's CustomEvent has no Detail; the event's
	// detail is read through Underlying).
	mc := &dom.BasicNode{Value: js.Global().Get("document").Get("modelContext")}
	showShared := func(n int) {
		c.shared.SetTextContent(" The page shares " + strconv.Itoa(n) + " resources now, this one among them.")
	}
	mc.AddEventListener("resourcelistchanged", false, func(e dom.Event) {
		showShared(e.Underlying().Get("detail").Get("resources").Length())
	})
	if list, err := modelcontext.Resources(); err == nil {
		showShared(len(list))
	}
	select {}
}
