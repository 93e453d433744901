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

// Follow hands over each change of a resource with the page's revision and,
// with WithPatches, an RFC 6902 patch: a follower that passes the cart on
// sends only what changed.
func ExampleFollow() {
	stop, err := modelcontext.Follow("state://cart", func(u modelcontext.Update[Cart], err error) {
		if err != nil {
			log.Print(err)
			return
		}
		if u.Patch != nil {
			log.Printf("revision %d: %d operations", u.Revision, len(u.Patch))
			return
		}
		log.Printf("revision %d: the whole cart, %v", u.Revision, u.Value.Items)
	}, modelcontext.WithPatches())
	if err != nil {
		log.Fatal(err)
	}
	defer stop()
}

// An agent that looked at the page at some revision asks what changed
// since, and reads only that.
func ExampleChangesSince() {
	ctx := context.Background()
	seen, err := modelcontext.Revision()
	if err != nil {
		log.Fatal(err)
	}
	// ... later:
	c, err := modelcontext.ChangesSince(ctx, seen)
	if err != nil {
		log.Fatal(err)
	}
	if c.Reset {
		log.Print("too long ago: read every resource again")
	}
	for _, uri := range append(c.Added, c.Updated...) {
		v, err := modelcontext.Read[any](ctx, uri)
		log.Print(uri, v, err)
	}
	seen = c.Revision // for next time
}
