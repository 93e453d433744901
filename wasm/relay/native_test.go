package relay

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The native host without a browser: the test plays the extension on the
// host's stdin and stdout, and the page behind it.

// fakeExtension is the extension's end of a native host run by Run.
type fakeExtension struct {
	t      *testing.T
	in     *io.PipeWriter // the host's stdin
	out    *io.PipeReader // its stdout
	msgs   chan hostMessage
	done   chan error
	cancel context.CancelFunc
	dir    string
}

func startHost(t *testing.T, origin string) *fakeExtension {
	t.Helper()
	dir := t.TempDir()
	cfg, _ := json.Marshal(hostConfig{HTTP: "127.0.0.1:0", Secret: "s3cret"})
	if err := os.WriteFile(filepath.Join(dir, configFile), cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	return startHostIn(t, origin, dir)
}

// startHostIn runs the native host with the configuration in dir.
func startHostIn(t *testing.T, origin, dir string) *fakeExtension {
	t.Helper()
	return startHostOpts(t, origin, dir, options{limits: defaultConnLimits})
}

// startHostOpts is startHostIn with the run's options.
func startHostOpts(t *testing.T, origin, dir string, opts options) *fakeExtension {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	f := &fakeExtension{t: t, in: inW, out: outR, msgs: make(chan hostMessage, 100), done: make(chan error, 1), cancel: cancel, dir: dir}
	go func() {
		err := run(ctx, []string{"--native-host", "--config-dir", dir, "--wait", "5s", origin}, inR, outW, io.Discard, opts)
		outW.Close()
		f.done <- err
	}()
	go func() {
		for {
			b, err := readNative(outR)
			if err != nil {
				close(f.msgs)
				return
			}
			var m hostMessage
			json.Unmarshal(b, &m)
			f.msgs <- m
		}
	}()
	t.Cleanup(func() {
		inW.Close()
		cancel()
		select {
		case <-f.done:
		case <-time.After(timeout):
			t.Error("the host did not exit")
		}
	})
	return f
}

func (f *fakeExtension) send(m hostMessage) {
	b, _ := json.Marshal(m)
	if err := writeNative(f.in, b); err != nil {
		f.t.Fatal(err)
	}
}

// next returns the host's next message of type typ.
func (f *fakeExtension) next(typ string) hostMessage {
	f.t.Helper()
	for {
		select {
		case m, ok := <-f.msgs:
			if !ok {
				f.t.Fatalf("the host closed its stdout, waiting for %q", typ)
			}
			if m.Type == typ {
				return m
			}
		case <-time.After(timeout):
			f.t.Fatalf("no %q from the host", typ)
		}
	}
}

// TestNativeHostOrigin: Chrome passes the caller's origin; the host
// answers only the extension's.
func TestNativeHostOrigin(t *testing.T) {
	for _, origin := range []string{"chrome-extension://abcdefghijklmnopabcdefghijklmnop/", ""} {
		err := Run(context.Background(), []string{"--native-host", "--config-dir", t.TempDir(), origin}, strings.NewReader(""), io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), "answers only the modelcontext extension") {
			t.Errorf("origin %q: %v", origin, err)
		}
	}
}

// TestExtensionClientNoHost: relay --extension when no tab is exposed (the
// host is not running) waits --wait, then says what to do.
func TestExtensionClientNoHost(t *testing.T) {
	err := Run(context.Background(), []string{"--extension", "--config-dir", t.TempDir(), "--wait", "300ms"}, strings.NewReader(""), io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "no tab is exposed") || !strings.Contains(err.Error(), "expose a tab") {
		t.Errorf("got %v", err)
	}
}

// TestNativeHost: the extension hands the host a page; a stdio client
// (over the loopback upgrade, with the secret) talks to it, message by
// message as they are; the Host, Origin and secret checks hold for the
// upgrade too.
func TestNativeHost(t *testing.T) {
	f := startHost(t, extensionOrigin)
	prefix := f.next("hello").Prefix
	if !strings.HasPrefix(prefix, "relay-") {
		t.Fatalf("hello: prefix %q", prefix)
	}
	f.send(hostMessage{Type: "page", Doc: 7, URL: "http://127.0.0.1:1/page"})
	// The page's server: ready on its channel, and on the probe's sub-channel.
	if m := f.next("post"); m.Doc != 7 || m.Channel != "mcp-default" || m.Text != `"mcp-check-ready"` {
		t.Fatalf("first post: %+v", m)
	}
	f.send(hostMessage{Type: "msg", Doc: 7, Channel: "mcp-default", Text: `"mcp-server-ready"`})
	probe := f.next("post")
	if !strings.HasPrefix(probe.Channel, "mcp-default/"+prefix) || probe.Text != `"mcp-check-ready"` {
		t.Fatalf("probe: %+v", probe)
	}
	f.send(hostMessage{Type: "msg", Doc: 7, Channel: probe.Channel, Text: `"mcp-server-ready"`})

	var run hostRunning
	for deadline := time.Now().Add(timeout); ; time.Sleep(10 * time.Millisecond) {
		b, err := os.ReadFile(filepath.Join(f.dir, runningFile))
		if err == nil && json.Unmarshal(b, &run) == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no running file")
		}
	}
	host := strings.TrimPrefix(strings.TrimSuffix(run.URL, "/mcp/s3cret"), "http://")
	upgrade := func(hostHeader, origin, secret string) (net.Conn, *bufio.Reader, int) {
		conn, err := net.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		req, _ := http.NewRequest("GET", "http://"+host+"/mcp", nil)
		req.Host = hostHeader
		req.Header.Set("Authorization", "Bearer "+secret)
		req.Header.Set("Connection", "Upgrade")
		req.Header.Set("Upgrade", stdioUpgrade)
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		req.Write(conn)
		br := bufio.NewReader(conn)
		resp, err := http.ReadResponse(br, req)
		if err != nil {
			t.Fatal(err)
		}
		return conn, br, resp.StatusCode
	}
	for _, tc := range []struct {
		host, origin, secret string
		want                 int
	}{
		{host, "", "wrong", http.StatusUnauthorized},
		{"evil.example:80", "", "s3cret", http.StatusForbidden},
		{host, "http://evil.example", "s3cret", http.StatusForbidden},
	} {
		conn, _, code := upgrade(tc.host, tc.origin, tc.secret)
		conn.Close()
		if code != tc.want {
			t.Errorf("upgrade with Host %s, Origin %q, secret %s: HTTP %d, want %d", tc.host, tc.origin, tc.secret, code, tc.want)
		}
	}
	conn, br, code := upgrade(host, "", "s3cret")
	defer conn.Close()
	if code != http.StatusSwitchingProtocols {
		t.Fatalf("upgrade: HTTP %d", code)
	}
	req := `{"jsonrpc":"2.0","id":1,  "method":"resources/read","params":{"uri":"test://x","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`
	io.WriteString(conn, req+"\n")
	m := f.next("post")
	for m.Channel == probe.Channel { // the probe's session ends
		m = f.next("post")
	}
	if !strings.HasPrefix(m.Channel, "mcp-default/"+prefix+"-") || m.Text != req {
		t.Fatalf("the page got %+v, want %s verbatim on a lane", m, req)
	}
	answer := `{"jsonrpc":"2.0","id":1,"result":{"contents":[{"uri":"test://x","text":"é"}]} }`
	f.send(hostMessage{Type: "msg", Doc: 7, Channel: m.Channel, Text: answer})
	line, err := br.ReadString('\n')
	if err != nil || strings.TrimSpace(line) != answer {
		t.Fatalf("the client got %q, %v; want %s verbatim", line, err, answer)
	}
	if s := f.next("status"); s.Sessions == nil {
		t.Errorf("status without sessions: %+v", s)
	}

	// The browser closes the port (the visitor stopped): the client's
	// connection ends, and the host exits.
	f.in.Close()
	if _, err := br.ReadString('\n'); err == nil {
		t.Error("the client's connection outlived the host")
	}
	select {
	case err := <-f.done:
		f.done <- err
		if err != nil {
			t.Errorf("the host: %v", err)
		}
	case <-time.After(timeout):
		t.Fatal("the host did not exit")
	}
	if _, err := os.Stat(filepath.Join(f.dir, runningFile)); err == nil {
		t.Error("the host left its running file")
	}
}
