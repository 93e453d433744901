package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// assistantSays waits until the assistant's newest messages include one
// that contains every one of parts, and returns it.
func assistantSays(t *testing.T, v *demoVisit, step string, parts ...string) string {
	t.Helper()
	deadline := time.Now().Add(patience)
	for {
		var msgs []string
		v.tab.Eval(`Array.from(document.querySelectorAll('#assistant-log > li[data-from="assistant"] p'), (p) => p.textContent)`, &msgs)
		for _, m := range msgs {
			all := true
			for _, p := range parts {
				all = all && strings.Contains(m, p)
			}
			if all {
				return m
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %s the assistant did not say %q; it said:\n%s\n%s", step, parts, strings.Join(msgs, "\n"), v.tab.ConsoleText())
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// assistantCount is how many messages the assistant has said that contain
// part.
func assistantCount(v *demoVisit, part string) int {
	var n int
	v.tab.Eval(`Array.from(document.querySelectorAll('#assistant-log > li[data-from="assistant"] p')).filter((p) => p.textContent.includes(`+"`"+part+"`"+`)).length`, &n)
	return n
}

// TestDemoAssistant is the demo's promise, kept: the assistant in the panel
// says it is scripted, sees what the visitor does (an item added, a note
// for the courier, the order moving on), suggests what goes with an item
// from this shop's own products, and answers its three questions from what
// it reads.
func TestDemoAssistant(t *testing.T) {
	base := startDemo(t, filepath.Join(browsertest.RepoRoot(), "demo"), demoDist(t), "-vendor", mcpVendor(t))
	tab := browsertest.NewTab(t)
	v := &demoVisit{t: t, tab: tab, want: map[string]counts{}}
	v.run("set viewport", chromedp.EmulateViewport(1280, 900))
	// ?tick=manual: the order moves on only when the test polls.
	tab.Navigate(base + "?tick=manual")

	assistantSays(t, v, "loading the page", "scripted", "no language model")
	assistantSays(t, v, "loading the page", "Today's notice", "Orders placed before 14:00 ship today.")

	v.run("add the kettle", chromedp.Click(`#product-KETTLE-ENAMEL [data-action="add-to-cart"]`, chromedp.ByQuery))
	assistantSays(t, v, "adding the kettle", "I see you added the Enamel kettle", "want a Stoneware mug to go with it?")
	v.run("add the mug", chromedp.Click(`#product-MUG-STONE [data-action="add-to-cart"]`, chromedp.ByQuery))
	assistantSays(t, v, "adding the mug", "I see you added the Stoneware mug", "the Enamel kettle already in your basket")
	v.run("add a second mug", chromedp.Click(`#product-MUG-STONE [data-action="increase"]`, chromedp.ByQuery))
	v.run("ask about the basket", chromedp.Click(`#assistant [data-ask="basket"]`, chromedp.ByQuery))
	assistantSays(t, v, "asking about the basket", "In your basket: 1 × Enamel kettle and 2 × Stoneware mug, €92.00 before shipping.")
	if n := assistantCount(v, "I see you added"); n != 2 {
		t.Errorf(`the assistant said "I see you added" %d times, want 2 (a second mug is no new item)`, n)
	}

	v.run("go to checkout", chromedp.Click(`[data-nav="checkout"]`, chromedp.ByQuery))
	assistantSays(t, v, "going to checkout", "You are at the checkout")
	v.run("ask what is missing", chromedp.Click(`#assistant [data-ask="missing"]`, chromedp.ByQuery))
	assistantSays(t, v, "asking what is missing", "Still missing in the checkout form: your name, a valid email, a street, a postcode, and a city.")

	// The note for the courier is settled: the assistant hears the
	// sentence once, after the visitor pauses, not once per keystroke.
	const note = "Leave it with the neighbours at 12."
	v.run("type a note for the courier", chromedp.SendKeys(`#f-note`, note, chromedp.ByQuery))
	assistantSays(t, v, "typing the note", "I read your note for the courier: “"+note+"”.")
	if n := assistantCount(v, "I read your note"); n > len(note)/8 {
		t.Errorf("the assistant read the note %d times for %d keystrokes", n, len(note))
	}

	v.run("choose Germany", chromedp.SetValue(`#f-country`, "DE", chromedp.ByQuery))
	v.tab.Eval(`document.querySelector('#f-country').dispatchEvent(new Event('input', {bubbles: true})), true`, nil)
	for _, f := range [][2]string{{"#f-name", "Ada Lovelace"}, {"#f-email", "ada@example.com"}, {"#f-street", "Keizersgracht 1"}, {"#f-postcode", "1017 AB"}, {"#f-city", "Amsterdam"}} {
		v.run("type "+f[0], chromedp.SendKeys(f[0], f[1], chromedp.ByQuery))
	}
	assistantSays(t, v, "filling in the form", "That is everything the form needs")
	if s := readGoApps(t); strings.Contains(s, "delivery") {
		assistantSays(t, v, "choosing Germany", "Delivery to Germany: 3–5 working days, shipping free.")
	}
	v.run("place the order", chromedp.Click(`#place-order`, chromedp.ByQuery))
	assistantSays(t, v, "placing the order", "This is order FH-1042")
	v.run("ask about the order", chromedp.Click(`#assistant [data-ask="order"]`, chromedp.ByQuery))
	assistantSays(t, v, "asking about the order", "Order FH-1042: Order placed, expected ")
	tab.Eval(`(window.__demoPoll(), window.__demoPoll(), true)`, nil) // placed (unchanged), then packed
	assistantSays(t, v, "the order being packed", "Order FH-1042: Packed.")
	v.screenshot("demo-assistant-1280.png")

	for _, l := range tab.Console() {
		if strings.HasPrefix(l, "uncaught:") || strings.HasPrefix(l, "console.error:") {
			t.Errorf("page reported: %s", l)
		}
	}
}

// readGoApps is the demo build's go-apps.json (which Go apps it starts), or
// "" when it has none.
func readGoApps(t *testing.T) string {
	b, err := os.ReadFile(filepath.Join(demoDist(t), "go-apps.json"))
	if err != nil {
		return ""
	}
	return string(b)
}

// TestDemoAssistantOnlyConsumes: the assistant is an agent in the page, so
// it uses the consumer side of document.modelContext and nothing else:
// never the producer side, never the panel's debug tap, never the shop's
// elements (it queries only its own box, #assistant and #assistant-log).
func TestDemoAssistantOnlyConsumes(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(browsertest.RepoRoot(), "demo", "assistant.js"))
	if err != nil {
		t.Fatal(err)
	}
	src := string(b)
	for _, forbidden := range []string{"registerResource", "registerPageResource", "registerResourceTools", "registerTool", "serveMCP", "__agentPanelTap", "querySelector", "AgentPanel"} {
		if strings.Contains(src, forbidden) {
			t.Errorf("demo/assistant.js uses %s", forbidden)
		}
	}
	for _, m := range regexp.MustCompile(`getElementById\('([^']*)'\)`).FindAllStringSubmatch(src, -1) {
		if !strings.HasPrefix(m[1], "assistant") {
			t.Errorf("demo/assistant.js reads the element #%s, which is not its own", m[1])
		}
	}
	for _, used := range []string{"mc.getResources()", "mc.readResource(", "mc.subscribeResource(", "'resourcelistchanged'"} {
		if !strings.Contains(src, used) {
			t.Errorf("demo/assistant.js no longer uses %s", used)
		}
	}
}
