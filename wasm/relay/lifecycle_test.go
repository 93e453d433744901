package relay

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// TestOptIn: a page must opt in; the error says how.
func TestOptIn(t *testing.T) {
	for _, tc := range []struct{ name, query, want string }{
		{"no sessions", "sessions=0", `serves MCP on the channel "mcp-default" but not per-client sessions: add data-mcp-sessions to its script tag next to data-mcp, or pass sessions: true to serveMCP`},
		{"no MCP", "mcp=0", `does not serve MCP on the channel "mcp-default" (waited 3s): add data-mcp and data-mcp-sessions to its modelcontext.js script tag, or call document.modelContext.serveMCP({channel: "mcp-default", sessions: true})`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := openPage(t, tc.query)
			p.Eval(`window.marker = 42`, nil)
			r := startRelay(t, append(p.attachArgs(), "--wait", "3s")...)
			err := r.wait()
			if err == nil || !strings.HasPrefix(err.Error(), "modelcontext: the page "+p.url) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Run returned %v\nwant modelcontext: the page %s ... %s", err, p.url, tc.want)
			}
			r.err = nil // expected
			untouched(t, p)
		})
	}
}

// untouched checks that the relay left p's tab open, on its document.
func untouched(t *testing.T, p *page) {
	t.Helper()
	var got struct {
		URL    string
		Marker int
	}
	p.Eval(`({url: location.href, marker: window.marker})`, &got)
	if got.URL != p.url || got.Marker != 42 {
		t.Errorf("the tab was navigated or reloaded: %+v", got)
	}
}

// TestPickTab: --attach relays exactly one tab, and says which when it
// cannot tell.
func TestPickTab(t *testing.T) {
	p := openPage(t, "x=1")
	q := openPage(t, "x=2")
	p.Eval(`window.marker = 42`, nil)
	devtools := p.attachArgs()[1]
	prefix := strings.TrimSuffix(p.url, "&x=1")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no --tab among several", nil, "modelcontext: the browser has"},
		{"a prefix of two", []string{"--tab", prefix}, "modelcontext: 2 tabs match --tab " + prefix},
		{"no match", []string{"--tab", "http://127.0.0.1:1/nothing"}, "modelcontext: no tab matches --tab http://127.0.0.1:1/nothing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := startRelay(t, append([]string{"--attach", devtools}, tc.args...)...)
			err := r.wait()
			r.err = nil
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("Run returned %v\nwant %s...", err, tc.want)
			}
			if tc.name != "no match" && (!strings.Contains(err.Error(), p.url) || !strings.Contains(err.Error(), q.url)) {
				t.Errorf("the error does not list the tabs: %v", err)
			}
		})
	}
	// By its full URL, a tab is one; once the relay is done, the page's
	// sessions are gone and the tab is as it was.
	r := startRelay(t, "--attach", devtools, "--tab", p.url)
	c := connectStdio(t, r, legacy)
	var sessions int
	p.Eval(`relayTest.sessions()`, &sessions)
	if sessions != 1 {
		t.Errorf("the page holds %d sessions with one client, want 1", sessions)
	}
	c.Close()
	if err := r.wait(); err != nil {
		t.Errorf("Run after the client left: %v", err)
	}
	p.Eval(`(async () => { while (relayTest.sessions() !== 0) await new Promise((r) => setTimeout(r, 10)); return 0; })()`, &sessions)
	untouched(t, p)
}

// TestLaunch: with --url the relay starts its own headless Chromium and
// leaves nothing behind when it stops: no browser process, no profile
// directory (its own, or chromedp's /tmp/chromedp-runner*).
func TestLaunch(t *testing.T) {
	requireBuild(t)
	exe, err := chromiumFor(t)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			runners := chromedpRunners()
			before := profileDirs()
			r := startRelay(t, append([]string{"--url", pageURL(t), "--chromium", exe}, tr.args...)...)
			c := tr.connect(t, r, legacy)
			dirs := newOnes(profileDirs(), before)
			if len(dirs) != 1 {
				t.Fatalf("profile directories the relay made: %v", dirs)
			}
			if got := c.read("test://static-text"); got != "This is the content of the static text resource." {
				t.Errorf("read: %q", got)
			}
			running := processesWith(dirs[0])
			if len(running) == 0 {
				t.Fatalf("no process mentions the profile %s", dirs[0])
			}
			t.Logf("%d Chromium processes while the relay runs", len(running))
			if tr.name == "stdio" {
				c.Close() // the client goes: the relay ends
				if err := r.wait(); err != nil {
					t.Errorf("Run after the client left: %v", err)
				}
			} else if err := r.stop(); err != nil { // Ctrl-C
				t.Errorf("Run after it was stopped: %v", err)
			}
			if _, err := os.Stat(dirs[0]); !os.IsNotExist(err) {
				t.Errorf("the profile %s is still there (%v)", dirs[0], err)
			}
			if procs := processesWith(dirs[0]); len(procs) > 0 {
				t.Errorf("Chromium processes left behind: %v", procs)
			}
			for _, p := range running {
				pid, _, _ := strings.Cut(p, ":")
				if _, err := os.Stat("/proc/" + pid); err == nil {
					t.Errorf("process %s still exists", p)
				}
			}
			if left := newOnes(chromedpRunners(), runners); len(left) > 0 {
				t.Errorf("chromedp-runner directories left behind: %v", left)
			}
		})
	}
}

func pageURL(t testing.TB) string {
	return strings.Replace(openPageURL(t), "?", "?launched=1&", 1)
}

func openPageURL(t testing.TB) string {
	return strings.TrimSpace(browsertestURL(t, "/relay.html?test="+t.Name()))
}

func chromedpRunners() []string {
	m, _ := filepath.Glob(filepath.Join(os.TempDir(), "chromedp-runner*"))
	return m
}

func newOnes(now, before []string) []string {
	seen := map[string]bool{}
	for _, b := range before {
		seen[b] = true
	}
	var out []string
	for _, n := range now {
		if !seen[n] {
			out = append(out, n)
		}
	}
	return out
}

// processesWith lists the processes whose command line mentions s.
func processesWith(s string) []string {
	var out []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(b), s) {
			out = append(out, e.Name()+": "+strings.ReplaceAll(string(b), "\x00", " "))
		}
	}
	return out
}

// TestTabClosed: when the user closes the tab, the relay ends with an error
// that says so.
func TestTabClosed(t *testing.T) {
	p := openPage(t, "")
	r := startRelay(t, p.attachArgs()...)
	c := connectStdio(t, r, legacy)
	c.read("test://a")
	if err := chromedp.Run(p.Ctx, chromedp.ActionFunc(func(ctx context.Context) error {
		cc := chromedp.FromContext(ctx)
		return target.CloseTarget(cc.Target.TargetID).Do(cdp.WithExecutor(ctx, cc.Browser))
	})); err != nil {
		t.Fatal(err)
	}
	err := r.wait()
	r.err = nil
	if err == nil || !strings.HasPrefix(err.Error(), "modelcontext: the tab was closed") {
		t.Errorf("Run returned %v", err)
	}
}

// TestBrowserGone: when the browser dies under it, the relay ends with an
// error that says so (and removes the profile of a browser it launched).
func TestBrowserGone(t *testing.T) {
	requireBuild(t)
	exe, err := chromiumFor(t)
	if err != nil {
		t.Fatal(err)
	}
	before := profileDirs()
	r := startRelay(t, "--url", pageURL(t), "--chromium", exe)
	c := connectStdio(t, r, legacy)
	c.read("test://a")
	dirs := newOnes(profileDirs(), before)
	if len(dirs) != 1 {
		t.Fatalf("profile directories the relay made: %v", dirs)
	}
	for _, p := range processesWith(dirs[0]) {
		if !strings.Contains(p, "--type=") { // the browser itself, not a helper
			pid, _, _ := strings.Cut(p, ":")
			if err := exec.Command("kill", "-9", pid).Run(); err != nil {
				t.Fatal(err)
			}
		}
	}
	err = r.wait()
	r.err = nil
	if err == nil || !strings.HasPrefix(err.Error(), "modelcontext: the browser went away") {
		t.Errorf("Run returned %v", err)
	}
	if _, err := os.Stat(dirs[0]); !os.IsNotExist(err) {
		t.Errorf("the profile %s is still there (%v)", dirs[0], err)
	}
}
