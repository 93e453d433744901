package relay

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The HTTP servers' connection limits (SECURITY.md): many connections
// without the secret neither stay open nor keep a client that holds it
// from being served.

// testLimits are connLimits lowered so that the tests see them act.
var testLimits = connLimits{MaxConns: 64, ReadHeaderTimeout: 2 * time.Second, IdleTimeout: 2 * time.Second}

// flood opens n connections to addr that never hold the secret, a third of
// each kind: one sends nothing; one sends a request without the secret and
// keeps the connection; one sends half a request's headers and stops.
func flood(t *testing.T, addr string, n int) []net.Conn {
	t.Helper()
	conns := make([]net.Conn, 0, n)
	t.Cleanup(func() {
		for _, c := range conns {
			c.Close()
		}
	})
	for i := range n {
		c, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatalf("connection %d of the flood: %v", i, err)
		}
		conns = append(conns, c)
		switch i % 3 {
		case 1: // a write may fail on a connection the server already closed
			fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", addr, len(initBody), initBody)
		case 2:
			fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\n", addr)
		}
	}
	return conns
}

// stillOpen reads each of conns (the server's answers, if any) until it
// ends or until deadline, and returns how many are still open then.
func stillOpen(conns []net.Conn, deadline time.Time) int {
	var open atomic.Int32
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.SetReadDeadline(deadline)
			_, err := io.Copy(io.Discard, c)
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				open.Add(1)
			}
		}()
	}
	wg.Wait()
	return int(open.Load())
}

// checkCap fails t unless the listener kept at most its cap open at once,
// and had to close some for it.
func checkCap(t *testing.T, ll *limitListener) {
	t.Helper()
	open, peak, closed := ll.stats()
	t.Logf("the server: %d connections open, at most %d at once, %d closed for the cap", open, peak, closed)
	if peak > testLimits.MaxConns {
		t.Errorf("the server had %d connections open at once; the cap is %d", peak, testLimits.MaxConns)
	}
	if closed == 0 {
		t.Error("the server closed no connection for the cap")
	}
}

// TestHTTPConnLimits: with 300 connections open that never hold the secret
// (the cap lowered to 64), a client with the secret initializes and lists
// the resources within a bounded time; the server never holds more than the
// cap; a connection without the secret is closed within the header timeout,
// and a kept-alive one with it after the idle timeout.
func TestHTTPConnLimits(t *testing.T) {
	p := openPage(t, "")
	var ll atomic.Pointer[limitListener]
	r := startRelayOpts(t, options{limits: testLimits, onListen: func(l *limitListener) { ll.Store(l) }},
		append(p.attachArgs(), "--http", "127.0.0.1:0")...)
	u, err := url.Parse(r.url)
	if err != nil {
		t.Fatal(err)
	}
	const n = 300
	start := time.Now()
	conns := flood(t, u.Host, n)
	t.Logf("%d connections opened in %v", n, time.Since(start))

	start = time.Now()
	c := connectHTTP(t, r, legacy)
	uris := c.uris()
	took := time.Since(start)
	t.Logf("with the flood open, initialize and resources/list took %v", took)
	if len(uris) == 0 || uris[0] != "test://static-text" {
		t.Errorf("resources/list: %v", uris)
	}
	if took > 30*time.Second {
		t.Errorf("initialize and resources/list took %v with the flood open", took)
	}
	checkCap(t, ll.Load())

	// Every connection of the flood is closed within the header timeout
	// (a refused request's at once); wait twice that, and a margin.
	if open := stillOpen(conns, start.Add(2*testLimits.ReadHeaderTimeout+5*time.Second)); open > 0 {
		t.Errorf("%d connections without the secret are still open after %v", open, time.Since(start))
	}

	// A kept-alive connection whose request held the secret is closed after
	// the idle timeout, not before.
	kept, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer kept.Close()
	fmt.Fprintf(kept, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n", u.Path, u.Host)
	kept.SetReadDeadline(time.Now().Add(timeout))
	br := bufio.NewReader(kept)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed || resp.Close {
		t.Fatalf("a GET with the secret and no session: HTTP %d, close %v; want 405, kept alive", resp.StatusCode, resp.Close)
	}
	idleFrom := time.Now()
	if _, err := br.ReadByte(); err == nil {
		t.Fatal("the server sent more after its answer")
	}
	if idle := time.Since(idleFrom); idle < testLimits.IdleTimeout/2 || idle > testLimits.IdleTimeout+10*time.Second {
		t.Errorf("the idle connection was closed after %v; the idle timeout is %v", idle, testLimits.IdleTimeout)
	}

	// The client's own idle connections were closed too; it connects again.
	time.Sleep(testLimits.IdleTimeout + time.Second)
	if got := c.read("test://static-text"); got != "This is the content of the static text resource." {
		t.Errorf("a read after the idle timeout: %q", got)
	}
}

// TestNativeHostConnLimits: the native host's server holds the same
// limits: with 300 connections without the secret open, a stdio client
// upgrades with it and gets its answer.
func TestNativeHostConnLimits(t *testing.T) {
	dir := t.TempDir()
	cfg, _ := json.Marshal(hostConfig{HTTP: "127.0.0.1:0", Secret: "s3cret"})
	if err := os.WriteFile(filepath.Join(dir, configFile), cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	var ll atomic.Pointer[limitListener]
	f := startHostOpts(t, extensionOrigin, dir, options{limits: testLimits, onListen: func(l *limitListener) { ll.Store(l) }})
	addr, probe := hostUp(t, f)
	const n = 300
	conns := flood(t, addr, n)

	start := time.Now()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(30 * time.Second))
	fmt.Fprintf(conn, "GET /mcp HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer s3cret\r\nConnection: Upgrade\r\nUpgrade: %s\r\n\r\n", addr, stdioUpgrade)
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("the upgrade with the flood open: %v, %v", resp, err)
	}
	req := `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"test://a","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`
	io.WriteString(conn, req+"\n")
	m := f.next("post")
	for m.Channel == probe { // the probe's session ends
		m = f.next("post")
	}
	answer := `{"jsonrpc":"2.0","id":1,"result":{"contents":[{"uri":"test://a","text":"1"}]}}`
	f.send(hostMessage{Type: "msg", Doc: 1, Channel: m.Channel, Text: answer})
	line, err := br.ReadString('\n')
	if err != nil || strings.TrimSpace(line) != answer {
		t.Fatalf("the stdio client got %q, %v", line, err)
	}
	t.Logf("with the flood open, the upgrade and a read took %v", time.Since(start))
	checkCap(t, ll.Load())
	if open := stillOpen(conns, start.Add(2*testLimits.ReadHeaderTimeout+5*time.Second)); open > 0 {
		t.Errorf("%d connections without the secret are still open after %v", open, time.Since(start))
	}
	// The stdio client's stream is not idle: it outlives the timeouts.
	conn.SetDeadline(time.Now().Add(timeout))
	io.WriteString(conn, strings.Replace(req, `"id":1`, `"id":2`, 1)+"\n")
	if m = f.next("post"); m.Channel == probe {
		m = f.next("post")
	}
	f.send(hostMessage{Type: "msg", Doc: 1, Channel: m.Channel, Text: strings.Replace(answer, `"id":1`, `"id":2`, 1)})
	if line, err := br.ReadString('\n'); err != nil || !strings.Contains(line, `"id":2`) {
		t.Errorf("the stdio client after the timeouts: %q, %v", line, err)
	}
}
