package relay

// A tab's documents: which ones it serves (one origin per run), what
// happens when one goes (a reload, a navigation, a crash), and how long
// requests wait for the next.

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// crash: the tab's renderer crashed; the tab stays, without a page. The
// sessions hear that the page is down, as at a reload, and are made again
// once a page serves MCP. A tab the relay launched is reloaded; any other
// waits for the visitor to reload it.
func (t *Tab) crash() {
	t.mu.Lock()
	t.crashed = true
	t.crashes++
	n, reload := t.crashes, t.reloadOnCrash
	t.mu.Unlock()
	t.documentGone()
	switch {
	case !reload:
		t.logf("the tab crashed; waiting for it to be reloaded (reload it in the browser)")
	case n > maxCrashReloads:
		t.lost(fmt.Errorf("modelcontext: the tab crashed %d times in a row, each time before its page served MCP again; the relay stopped reloading it (the page may need more memory than the browser gives it): start the relay again", n))
	default:
		t.logf("the tab crashed; reloading it")
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), t.wait)
			defer cancel()
			if err := t.cdp.call(ctx, t.session(), "Page.reload", nil, nil); err != nil {
				t.logf("reloading the tab after its crash: %v", err)
			}
		}()
	}
}

// newDocument: the relay's script runs in a new document (a load, a
// reload, a navigation). Ask its MCP server whether it is there, if the
// relay may serve it (see admit).
func (t *Tab) newDocument(ctxID int64, url string) {
	t.mu.Lock()
	old := t.ctxID
	t.mu.Unlock()
	if old != 0 && old != ctxID {
		t.documentGone()
	}
	serve, err := t.admit(url)
	switch {
	case err != nil && t.pinned:
		t.lost(err)
		return
	case err != nil:
		t.logf("%v", err)
		t.mu.Lock()
		t.url = url
		t.fail(err)
		return
	case !serve:
		return // about:blank, before the page or between two
	}
	t.mu.Lock()
	t.url = url
	t.mu.Unlock()
	t.newDocumentState(ctxID)
}

// admit says whether the relay serves the document at rawURL: an https
// page, or a plain http one on a loopback host (anyone on the network
// between could change what any other says to the agent); when the tab is
// pinned, only of the origin it was pinned to. about: documents are not
// served, and are no error.
func (t *Tab) admit(rawURL string) (bool, error) {
	if strings.HasPrefix(rawURL, "about:") {
		return false, nil
	}
	origin, err := servableOrigin(rawURL)
	if err != nil {
		return false, err
	}
	if !t.pinned {
		return true, nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.origin == "" {
		t.origin = origin
	}
	if origin != t.origin {
		return false, fmt.Errorf("modelcontext: the tab went to another site (%s, not %s): the relay serves one site, the one it started on, and stopped; start it again for %s if you mean to", rawURL, t.origin, origin)
	}
	return true, nil
}

// servableOrigin returns the origin of rawURL when the relay may serve a
// page there: https, or plain http on a loopback host (127.0.0.0/8, ::1,
// localhost).
func servableOrigin(rawURL string) (string, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" || u.Scheme != "https" && u.Scheme != "http" {
		return "", fmt.Errorf("modelcontext: %s is not a web page (https://, or http:// on this machine); the relay serves only those", rawURL)
	}
	if u.Scheme == "http" && !isLoopbackHost(u.Hostname()) {
		return "", fmt.Errorf("modelcontext: %s is plain http on another machine: anyone on the network between could change what it tells the agent; use its https:// address (plain http is served only on loopback: 127.0.0.1, ::1, localhost)", rawURL)
	}
	return u.Scheme + "://" + u.Host, nil
}

// isLoopbackHost: host (without a port) is localhost or a loopback IP.
func isLoopbackHost(host string) bool {
	return host == "localhost" || isLoopbackIP(host)
}

func (t *Tab) newDocumentState(ctxID int64) {
	t.mu.Lock()
	t.crashed = false
	t.ctxID, t.ctxUnique = ctxID, t.uniques[ctxID]
	t.gen++
	t.probe = t.prefix + "-probe" + fmt.Sprint(t.gen)
	t.setState(tabWaiting, nil)
	gen := t.gen
	t.mu.Unlock()
	t.startWait(gen)
	t.post(t.channel, []byte(`"mcp-check-ready"`))
}

// documentGone: the document (or its server) went away; the lanes' sessions
// hear that the page is down.
func (t *Tab) documentGone() {
	t.mu.Lock()
	wasUp := t.state == tabUp
	t.ctxID, t.ctxUnique = 0, ""
	t.gen++
	t.setState(tabNoPage, nil)
	gen := t.gen
	lanes := t.laneList()
	t.mu.Unlock()
	if wasUp {
		t.logf("the page went away (a reload or a navigation); waiting for its MCP server")
	}
	for _, l := range lanes {
		l.h.pageDown()
	}
	t.startWait(gen)
}

// startWait fails the lanes if the page's server does not serve sessions
// within t.wait.
func (t *Tab) startWait(gen int) {
	time.AfterFunc(t.wait, func() {
		t.mu.Lock()
		if gen != t.gen || t.state == tabUp || t.state == tabFailed {
			t.mu.Unlock()
			return
		}
		err := fmt.Errorf("modelcontext: %s does not serve MCP on the channel %q (waited %v): add data-mcp and data-mcp-sessions to its modelcontext.js script tag, or call document.modelContext.serveMCP({channel: %q, sessions: true})",
			t.describe(), t.channel, t.wait, t.channel)
		switch {
		case t.state == tabProbing:
			err = t.noSessions()
		case t.crashed && t.reloadOnCrash:
			err = fmt.Errorf("modelcontext: the tab crashed, and its page did not come back within %v of the relay's reload; the relay keeps waiting for it", t.wait)
		case t.crashed:
			err = fmt.Errorf("modelcontext: the tab crashed, and has not been reloaded (waited %v): reload it in the browser; the relay serves it again once its page serves MCP", t.wait)
		}
		t.fail(err)
	})
}
