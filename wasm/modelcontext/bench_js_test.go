//go:build js && wasm

package modelcontext

import (
	"context"
	"testing"
)

// The cost of a Go resource to the page, measured in Chromium (make
// test-goapi's browser, with -bench): a push of a changed value (Notify:
// the module calls Get, Go encodes the value, the module compares and
// dispatches it), a push of an unchanged one (suppressed), a read from the
// page's JavaScript, and a push through a GetContext.
//
//	GOOS=js GOARCH=wasm go test -run '^$' -bench . -exec=.cache/bin/go_js_wasm_exec ./wasm/modelcontext

type benchLine struct {
	SKU   string `json:"sku"`
	Qty   int    `json:"qty"`
	Price int    `json:"priceCents"`
}

type benchCart struct {
	Lines []benchLine `json:"lines"`
	Count int         `json:"count"`
}

func benchResource(b *testing.B, uri string, get func() (any, error)) (notify func()) {
	b.Helper()
	var changed Notifier
	unregister, err := Register(Resource{URI: uri, Name: "bench", Get: get, Watch: changed.Watch})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(unregister)
	stop, err := OnUpdated(func(*UpdatedEvent) {})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(stop)
	return changed.Notify
}

func BenchmarkPush(b *testing.B) {
	setup(b)
	c := benchCart{Lines: []benchLine{{"MUG", 1, 1800}, {"KETTLE", 1, 4500}}}
	notify := benchResource(b, "state://bench-push", func() (any, error) { return c, nil })
	for b.Loop() {
		c.Count++
		notify()
	}
}

func BenchmarkPushUnchanged(b *testing.B) {
	setup(b)
	c := benchCart{Lines: []benchLine{{"MUG", 1, 1800}, {"KETTLE", 1, 4500}}}
	notify := benchResource(b, "state://bench-same", func() (any, error) { return c, nil })
	notify()
	for b.Loop() {
		notify()
	}
}

func BenchmarkReadFromJS(b *testing.B) {
	setup(b)
	c := benchCart{Lines: []benchLine{{"MUG", 1, 1800}, {"KETTLE", 1, 4500}}}
	benchResource(b, "state://bench-read", func() (any, error) { return c, nil })
	read := jsFunc(`const [n] = arguments; for (let i = 0; i < n; i++) document.modelContext.readResource("state://bench-read");`)
	b.ResetTimer()
	read.Invoke(b.N)
}

// BenchmarkPushContext: a push of a changed value whose getter is a
// GetContext (a goroutine and a Promise per push), each push awaited.
func BenchmarkPushContext(b *testing.B) {
	setup(b)
	c := benchCart{Lines: []benchLine{{"MUG", 1, 1800}, {"KETTLE", 1, 4500}}}
	var changed Notifier
	unregister, err := Register(Resource{URI: "state://bench-context", Name: "bench", Watch: changed.Watch,
		GetContext: func(context.Context) (any, error) { return c, nil }})
	if err != nil {
		b.Fatal(err)
	}
	defer unregister()
	pushed := make(chan struct{}, 1)
	stop, err := OnUpdated(func(*UpdatedEvent) { pushed <- struct{}{} })
	if err != nil {
		b.Fatal(err)
	}
	defer stop()
	for b.Loop() {
		c.Count++
		changed.Notify()
		<-pushed
	}
}
