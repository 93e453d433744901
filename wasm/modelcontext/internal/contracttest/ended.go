package contracttest

import (
	"sync/atomic"

	"github.com/modelcontext-go/modelcontext/wasm/modelcontext"
)

// ended: a consumer subscription ends with its resource's unregistration
// (a new registration of the uri does not bring it back, and the new one
// is listed last), while a replacement keeps the list place and the
// subscriptions of the one it replaced; templates are listed in
// registration order, a replacement in the place of the one it replaced.
// The registry decides all of it, in the module and in the double.
func (p *play) ended() {
	var changed modelcontext.Notifier
	var n atomic.Int32
	reg := func(uri, name string, watch func(func()) func()) func() {
		un, err := modelcontext.Register(modelcontext.Resource{URI: uri, Name: name, Watch: watch,
			Get: func() (any, error) { return n.Load(), nil }})
		p.must(err)
		return un
	}
	un1 := reg("contract://e1", "e1", changed.Watch)
	un2 := reg("contract://e2", "e2", nil)
	stop, err := modelcontext.Subscribe("contract://e1", func(v int, err error) { p.add("subscription contract://e1 %d %v", v, err) })
	p.must(err)
	defer stop()
	n.Store(1)
	changed.Notify()
	un1b := reg("contract://e1", "e1 replaced", changed.Watch) // in its place, with its subscription
	changed.Notify()
	un1b()
	un1()                                                 // replaced: does nothing
	un1 = reg("contract://e1", "e1 again", changed.Watch) // last, without the subscription
	n.Store(2)
	changed.Notify()
	p.settle()
	getT := func(map[string]string) (any, error) { return 1, nil }
	tpl := func(uriTemplate, name string) func() {
		un, err := modelcontext.RegisterTemplate(modelcontext.Template{URITemplate: uriTemplate, Name: name, Get: getT})
		p.must(err)
		return un
	}
	unT1 := tpl("contract://t1/{id}", "t1")
	unT2 := tpl("contract://t2/{id}", "t2")
	unT1b := tpl("contract://t1/{id}", "t1 again")
	list, err := modelcontext.Templates()
	p.must(err)
	var names []string
	for _, t := range list {
		if ours(t.URITemplate) {
			names = append(names, t.Name)
		}
	}
	p.add("templates %q", names)
	for _, un := range []func(){unT1b, unT1, unT2, un1, un2} {
		un()
	}
}
