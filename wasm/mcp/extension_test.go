package mcp

import (
	"os"
	"regexp"
	"testing"
)

// The browser extension's content script (js/extension/content.js) is
// copied as it is, not built by jsbuild, so it spells the tab transport's
// words itself: this test fails when they drift from the server's.
func TestTheExtensionSpeaksTheTransport(t *testing.T) {
	src, err := os.ReadFile("../../js/extension/content.js")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{DefaultChannel: true, CheckReady: true, ServerReady: true, ServerStopped: true}
	for _, m := range regexp.MustCompile(`"(mcp-[a-z-]+)"`).FindAllStringSubmatch(string(src), -1) {
		if !want[m[1]] {
			t.Errorf("content.js says %q, which the MCP server does not (its words: %v)", m[1], want)
		}
	}
	for _, w := range []string{DefaultChannel, CheckReady, ServerReady} {
		if !regexp.MustCompile(`"` + regexp.QuoteMeta(w) + `"`).Match(src) {
			t.Errorf("content.js no longer says %q", w)
		}
	}
}
