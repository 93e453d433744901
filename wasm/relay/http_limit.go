package relay

import (
	"context"
	"net"
	"net/http"
	"sync"
	"time"
)

// connLimits bound the connections of the relay's HTTP servers (--http and
// the native host's), so that clients without the secret cannot hold file
// descriptors for long, nor starve a client that holds it.
type connLimits struct {
	// MaxConns caps the connections open at once. At the cap, a new
	// connection closes one not serving a request: a refused one first, then
	// one that never carried a request with the secret, the oldest first;
	// when every one is serving a request, the new one is closed at once.
	MaxConns int
	// ReadHeaderTimeout bounds the wait for a request's headers, from the
	// connection's start or from the end of its idle time. Past it the
	// connection is closed. A request refused before its body is read (no
	// secret, a foreign Host or Origin) closes its connection, so a client
	// without the secret never holds one longer than this.
	ReadHeaderTimeout time.Duration
	// IdleTimeout closes a kept-alive connection that carries no request
	// this long.
	IdleTimeout time.Duration
}

// defaultConnLimits fit a relay on one machine: a few clients, each with a
// few connections (requests, a GET stream, listen streams).
var defaultConnLimits = connLimits{MaxConns: 256, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}

// newLimitedServer returns an HTTP server for h with lim's timeouts, and ln
// wrapped to cap its connections; serve the server on the wrapper.
func newLimitedServer(h http.Handler, ln net.Listener, lim connLimits, logf func(string, ...any)) (*http.Server, *limitListener) {
	l := &limitListener{Listener: ln, max: max(lim.MaxConns, 1), logf: logf, conns: map[*limitConn]struct{}{}}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: lim.ReadHeaderTimeout,
		IdleTimeout:       lim.IdleTimeout,
		MaxHeaderBytes:    64 << 10,
		ConnState:         l.connState,
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			return context.WithValue(ctx, connKey{}, c)
		},
	}
	return srv, l
}

// connKey is the request context's key of its *limitConn.
type connKey struct{}

// limitListener caps the connections it accepts (see connLimits.MaxConns).
type limitListener struct {
	net.Listener
	max  int
	logf func(string, ...any)

	mu       sync.Mutex
	conns    map[*limitConn]struct{}
	peak     int       // the most open at once
	closed   int       // connections closed to make room, or refused at the cap
	loggedAt time.Time // of the last log line about the cap
}

// limitConn is an accepted connection; its fields are guarded by the
// listener's mu.
type limitConn struct {
	net.Conn
	l     *limitListener
	once  sync.Once
	busy  bool      // serving a request, or hijacked (a stdio client's stream)
	since time.Time // when it last became idle (or was accepted)
	// trusted: a request on it held the secret; refused: one did not (or
	// named a foreign Host or Origin), and the connection closes after the
	// answer.
	trusted, refused bool
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		lc := &limitConn{Conn: c, l: l, since: time.Now()}
		l.mu.Lock()
		var victim *limitConn
		full := len(l.conns) >= l.max
		if full {
			if victim = l.victim(); victim != nil {
				delete(l.conns, victim)
			}
		}
		if full {
			l.closed++
			l.logCap()
		}
		if full && victim == nil {
			l.mu.Unlock()
			c.Close() // every connection is serving a request: refuse this one at once
			continue
		}
		l.conns[lc] = struct{}{}
		l.peak = max(l.peak, len(l.conns))
		l.mu.Unlock()
		if victim != nil {
			victim.Conn.Close() // its server goroutine sees the error and ends
		}
		return lc, nil
	}
}

// victim picks the connection to close for a new one: not serving a
// request (or refused), refused before untrusted before trusted, the
// longest idle first; nil if none. l.mu is held.
func (l *limitListener) victim() *limitConn {
	rank := func(c *limitConn) int {
		switch {
		case c.refused:
			return 0
		case !c.trusted:
			return 1
		}
		return 2
	}
	var v *limitConn
	for c := range l.conns {
		if c.busy && !c.refused {
			continue
		}
		if v == nil || rank(c) < rank(v) || rank(c) == rank(v) && c.since.Before(v.since) {
			v = c
		}
	}
	return v
}

// logCap says, at most every 10 s, that the cap was reached. l.mu is held.
func (l *limitListener) logCap() {
	if now := time.Now(); now.Sub(l.loggedAt) >= 10*time.Second {
		l.loggedAt = now
		l.logf("HTTP: %d connections open, the most it keeps; closing the longest idle for new ones (%d so far)", l.max, l.closed)
	}
}

// connState follows what the server does with each connection.
func (l *limitListener) connState(c net.Conn, s http.ConnState) {
	lc, ok := c.(*limitConn)
	if !ok {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	switch s {
	case http.StateActive, http.StateHijacked:
		lc.busy = true
	case http.StateIdle:
		lc.busy, lc.since = false, time.Now()
	}
}

// stats returns how many connections are open, the most that were, and
// how many were closed for the cap.
func (l *limitListener) stats() (open, peak, closed int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.conns), l.peak, l.closed
}

func (c *limitConn) Close() error {
	c.once.Do(func() {
		c.l.mu.Lock()
		delete(c.l.conns, c)
		c.l.mu.Unlock()
	})
	return c.Conn.Close()
}

// CloseWrite lets the server end a refused connection gracefully (its
// answer is read before the close), as it does a plain TCP connection.
func (c *limitConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// markConn records on r's connection whether r held the secret; a refused
// request's connection closes after the answer, and is the first to go
// when the connections are at the cap.
func markConn(w http.ResponseWriter, r *http.Request, trusted bool) {
	lc, ok := r.Context().Value(connKey{}).(*limitConn)
	if !trusted {
		w.Header().Set("Connection", "close")
	}
	if !ok {
		return
	}
	lc.l.mu.Lock()
	if trusted {
		lc.trusted = true
	} else {
		lc.refused = true
	}
	lc.l.mu.Unlock()
}
