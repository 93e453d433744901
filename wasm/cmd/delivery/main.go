//go:build js && wasm

// Command delivery is the demo shop's delivery estimate: a small Go
// WebAssembly app beside the page's JavaScript. It follows the checkout draft
// (state://checkout-draft, a resource the page's JavaScript registers), works
// out when an order would arrive, shows it in the checkout's #delivery card,
// and publishes it as its own resource, state://delivery, on the same
// document.modelContext: the agent panel lists the page's resources and the
// Go app's side by side.
//
// It is built by make demo-app into dist/delivery.wasm and loaded by
// demo/go-app.js with Go's own wasm_exec.js. It uses
// github.com/modelcontext-go/modelcontext/wasm/modelcontext for everything
// about resources (registering its own, reading and following the draft,
// hearing of list changes) and honnef.co/go/js/dom/v2 for its DOM work.
package main

import (
	"context"
	"strconv"

	"github.com/modelcontext-go/modelcontext/wasm/modelcontext"
	"honnef.co/go/js/dom/v2"
)

// card is the #delivery element the app renders into.
type card struct {
	box, text, sharedText dom.Element
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

func (c card) shared(n int) {
	c.sharedText.SetTextContent(" The page shares " + strconv.Itoa(n) + " resources now, this one among them.")
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
	c := card{box: box, text: box.QuerySelector(".delivery-text"), sharedText: box.QuerySelector(".delivery-shared")}
	ctx := context.Background()
	if err := modelcontext.Ready(ctx); err != nil {
		c.fail(err)
		return
	}
	if err := share(ctx, c); err != nil {
		c.fail(err)
		return
	}
	select {}
}
