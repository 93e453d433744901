package relay

import "time"

// sweep ends the 2025-11-25 sessions idle (nothing in flight, no GET
// stream) for longer than h.idle at now.
func (h *httpRelay) sweep(now time.Time) {
	h.mu.Lock()
	var idle []*httpLane
	for _, l := range h.sessions {
		l.mu.Lock()
		if l.active == 0 && now.Sub(l.lastUsed) > h.idle {
			idle = append(idle, l)
		}
		l.mu.Unlock()
	}
	h.mu.Unlock()
	for _, l := range idle {
		h.logf("HTTP session %s ended after %v idle", l.id[:8], h.idle)
		h.end(l, "")
	}
}

// sweepEvery runs sweep until the relay stops.
func (h *httpRelay) sweepEvery(d time.Duration) {
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-h.stop:
			return
		case now := <-t.C:
			h.sweep(now)
		}
	}
}

// Sessions returns how many 2025-11-25 sessions are open.
func (h *httpRelay) Sessions() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.sessions)
}

// close ends every exchange and lane.
func (h *httpRelay) close() {
	close(h.stop)
	h.mu.Lock()
	lanes := append([]*httpLane(nil), h.modern...)
	for _, l := range h.sessions {
		lanes = append(lanes, l)
	}
	h.mu.Unlock()
	for _, l := range lanes {
		h.end(l, "modelcontext: the relay is shutting down")
	}
}
