package modelcontext_test

import (
	"context"
	"errors"
	"log"

	"github.com/modelcontext-go/modelcontext/wasm/modelcontext"
)

type Cart struct {
	Items map[string]int `json:"items"`
}

// These examples need the page's module, so they compile here but run only in
// the browser; package modelcontexttest runs the same calls with go test.

// An app waits for the module, publishes its cart and tells the module when
// it changed; the module sends the value to agents only if it differs.
func ExampleRegister() {
	cart := Cart{Items: map[string]int{}}
	var changed modelcontext.Notifier

	if err := modelcontext.Ready(context.Background()); err != nil {
		log.Fatal(err)
	}
	unregister, err := modelcontext.Register(modelcontext.Resource{
		URI: "state://cart", Name: "cart",
		Get:   func() (any, error) { return cart, nil },
		Watch: changed.Watch,
	})
	if err != nil {
		log.Fatal(err)
	}
	defer unregister()

	cart.Items["apple"]++
	changed.Notify()
}

// Read decodes any resource of the page into a Go type.
func ExampleRead() {
	cart, err := modelcontext.Read[Cart](context.Background(), "state://cart")
	if errors.Is(err, modelcontext.ErrNotFound) {
		log.Print("no cart on this page")
		return
	}
	if err != nil {
		log.Fatal(err)
	}
	log.Print(cart.Items)
}

// Subscribe follows a resource's changes until stop is called.
func ExampleSubscribe() {
	stop, err := modelcontext.Subscribe("state://cart", func(cart Cart, err error) {
		if err != nil {
			log.Print(err)
			return
		}
		log.Print(cart.Items)
	})
	if err != nil {
		log.Fatal(err)
	}
	defer stop()
}
