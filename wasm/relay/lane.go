package relay

import (
	"context"
	"fmt"
)

// openSession opens a client session on a lane of its own; out delivers
// what the page (or the relay) says to the client.
func (t *Tab) openSession(out func(*message)) *Session {
	s := newSession(out, t.logf)
	t.mu.Lock()
	t.nextLane++
	l := &tabLane{tab: t, h: s, n: t.prefix + "-" + fmt.Sprint(t.nextLane)}
	s.lane = l
	t.lanes[l.n] = l
	state, err := t.state, t.failure
	t.mu.Unlock()
	switch state {
	case tabUp:
		s.pageUp()
	case tabFailed:
		s.pageFailed(err)
	}
	return s
}

// Lanes returns how many lanes are open.
func (t *Tab) Lanes() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.lanes)
}

// close ends every lane and removes the relay's script from the tab, then
// detaches; the tab itself stays as it is.
func (t *Tab) close(ctx context.Context) {
	t.mu.Lock()
	lanes := t.laneList()
	t.mu.Unlock()
	for _, l := range lanes {
		l.close()
	}
	t.mu.Lock()
	ctxID, gone := t.ctxID, t.gone
	t.mu.Unlock()
	if gone != nil || t.cdp == nil {
		return
	}
	sid := t.session()
	if ctxID != 0 {
		t.cdp.call(ctx, sid, "Runtime.evaluate", map[string]any{"expression": "globalThis[" + string(mustJSON(t.stopFn)) + "]?.()", "contextId": ctxID, "silent": true}, nil)
	}
	t.cdp.call(ctx, sid, "Page.removeScriptToEvaluateOnNewDocument", map[string]any{"identifier": t.scriptID}, nil)
	t.cdp.call(ctx, sid, "Runtime.removeBinding", map[string]any{"name": t.binding}, nil)
	t.cdp.call(ctx, sid, "Runtime.disable", nil, nil)
	t.cdp.call(ctx, "", "Target.detachFromTarget", map[string]any{"sessionId": sid}, nil)
}

// tabLane is one client session's sub-channel.
type tabLane struct {
	tab *Tab
	h   laneHandler
	n   string
}

func (l *tabLane) name() string { return l.n }

func (l *tabLane) send(raw []byte) { l.tab.post(l.tab.channel+"/"+l.n, raw) }

// close tells the page to end the session, and forgets the lane.
func (l *tabLane) close() {
	t := l.tab
	t.mu.Lock()
	_, open := t.lanes[l.n]
	delete(t.lanes, l.n)
	up := t.state == tabUp
	t.mu.Unlock()
	if open && up {
		t.post(t.channel+"/"+l.n, []byte(`"mcp-session-close"`))
	}
}
