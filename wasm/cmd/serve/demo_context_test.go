package main

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// TestDemoPageContext checks the demo's two resources without code of
// their own: the store notice, a resource by markup alone, and the note for
// the courier, a settled resource that a typed sentence pushes once, not
// once per keystroke.
func TestDemoPageContext(t *testing.T) {
	base := startDemo(t, filepath.Join(browsertest.RepoRoot(), "demo"), demoDist(t))
	tab := browsertest.NewTab(t)
	tab.Navigate(base)
	var notice string
	tab.Eval(`document.modelContext.readResource('state://store-notice')`, &notice)
	if want := "Orders placed before 14:00 ship today. The workshop is closed on Sundays."; notice != want {
		t.Errorf("store notice = %q, want %q", notice, want)
	}
	tab.Eval(`(window.__notes = [], document.modelContext.subscribeResource('state://courier-note', (v) => window.__notes.push(v)), true)`, nil)
	const sentence = "Please leave it with the neighbours at 12."
	if err := chromedp.Run(tab.Ctx,
		chromedp.Click(`[data-nav="checkout"]`, chromedp.ByQuery),
		chromedp.SendKeys(`#f-note`, sentence, chromedp.ByQuery),
	); err != nil {
		t.Fatal(err)
	}
	var notes []string
	quoted, _ := json.Marshal(sentence)
	// The push comes 400 ms after the last keystroke (settle).
	tab.Eval(`new Promise((resolve) => {
	  const check = () => window.__notes.at(-1) === `+string(quoted)+` ? resolve(window.__notes) : setTimeout(check, 50);
	  check();
	})`, &notes)
	// A push at least every 4 × settle while typing: a slow machine may type
	// for longer than that, never for one push per keystroke.
	if len(notes) > len(sentence)/8 {
		t.Errorf("%d pushes of the courier note for %d keystrokes: %q", len(notes), len(sentence), notes)
	}
}
