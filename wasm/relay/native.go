package relay

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// The relay as the extension's native messaging host (--native-host).
//
// Chrome starts it when the extension first exposes a tab
// (chrome.runtime.connectNative), with the caller's origin as its argument,
// and talks to it on stdin and stdout: each message is JSON preceded by its
// length, 4 bytes in native byte order. The host serves the exposed tab to
// desktop clients on a loopback address, with the secret that
// --install-native-host wrote: Streamable HTTP at /mcp, and stdio clients
// (`relay --extension`, started by the desktop client) that upgrade a GET
// of /mcp to a plain stream of newline-delimited JSON-RPC.
//
// Its messages with the extension (all have "type"):
//
//	host → extension  {"type":"hello","prefix":P}          the relay's sub-channels are "mcp-default/P-…"
//	                  {"type":"post","doc":N,"channel":C,"text":T}   post T (JSON text) on C in document N
//	                  {"type":"status","sessions":N}       client sessions open
//	extension → host  {"type":"page","doc":N,"url":U}      document N of the exposed tab serves MCP
//	                  {"type":"gone","doc":N}              it went away (a reload, a navigation, another tab chosen)
//	                  {"type":"msg","doc":N,"channel":C,"text":T}    the page posted T on C
//
// Document numbers play the part of the DevTools execution contexts of the
// CDP path: the same [Tab] logic finds the page's server, re-establishes
// sessions after a reload or a tab switch, and tells the clients.

// nativeHostName is the host's name in its manifest and in the extension's
// connectNative call (js/extension/background.js).
const nativeHostName = "com.github.modelcontext_go.relay"

// stdioUpgrade is the protocol a stdio client's GET upgrades to.
const stdioUpgrade = "modelcontext-stdio"

// Chrome's limits on native messages: 1 MB to the extension, 64 MiB from it.
const (
	maxToExtension   = 1 << 20
	maxFromExtension = 64 << 20
)

// hostConfig is what --install-native-host writes (relay.json in the
// configuration directory, mode 0600).
type hostConfig struct {
	HTTP   string `json:"http"`   // the loopback address the host listens on
	Secret string `json:"secret"` // clients must hold it
}

// hostRunning is what the running host writes (native-host.json, 0600)
// for stdio clients to find it; it is removed when the host exits.
type hostRunning struct {
	URL string `json:"url"` // http://ADDR/mcp/SECRET
	PID int    `json:"pid"`
}

const (
	configFile  = "relay.json"
	runningFile = "native-host.json"
	hostLogFile = "native-host.log"
)

// defaultConfigDir is where the host's files live: modelcontext under the
// user's configuration directory (~/.config on Linux, ~/Library/Application
// Support on macOS).
func defaultConfigDir() (string, error) {
	d, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("modelcontext: %w; pass --config-dir", err)
	}
	return filepath.Join(d, "modelcontext"), nil
}

func readHostConfig(dir string) (hostConfig, error) {
	var c hostConfig
	b, err := os.ReadFile(filepath.Join(dir, configFile))
	if err != nil {
		return c, fmt.Errorf("modelcontext: %w: run `relay --install-native-host` first", err)
	}
	if err := json.Unmarshal(b, &c); err != nil || c.Secret == "" || c.HTTP == "" {
		return c, fmt.Errorf("modelcontext: %s is not the relay's configuration: run `relay --install-native-host` again", filepath.Join(dir, configFile))
	}
	return c, nil
}

// writePrivate writes b to path, readable only by the user.
func writePrivate(path string, b []byte, mode os.FileMode) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, mode); err != nil {
		return err
	}
	if err := os.Chmod(tmp, mode); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// hostMessage is one native message, either way.
type hostMessage struct {
	Type     string `json:"type"`
	Doc      int64  `json:"doc,omitempty"`
	URL      string `json:"url,omitempty"`
	Channel  string `json:"channel,omitempty"`
	Text     string `json:"text,omitempty"`
	Prefix   string `json:"prefix,omitempty"`
	Sessions *int   `json:"sessions,omitempty"`
}

// readNative reads one native message.
func readNative(r io.Reader) ([]byte, error) {
	var n [4]byte
	if _, err := io.ReadFull(r, n[:]); err != nil {
		return nil, err
	}
	size := binary.NativeEndian.Uint32(n[:])
	if size > maxFromExtension {
		return nil, fmt.Errorf("modelcontext: a native message of %d bytes (at most %d)", size, maxFromExtension)
	}
	b := make([]byte, size)
	_, err := io.ReadFull(r, b)
	if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return b, err
}

// writeNative writes one native message.
func writeNative(w io.Writer, b []byte) error {
	buf := make([]byte, 4, 4+len(b))
	binary.NativeEndian.PutUint32(buf, uint32(len(b)))
	_, err := w.Write(append(buf, b...))
	return err
}

// nativeHostFlags are the launcher's flags of --native-host, and Chrome's
// first argument, the caller's origin.
type nativeHostFlags struct {
	dir         string // --config-dir
	wait        time.Duration
	maxSessions int
	idle        time.Duration
	origin      string
}

func parseNativeHostFlags(args []string) (nativeHostFlags, error) {
	fl := flag.NewFlagSet("relay", flag.ContinueOnError)
	fl.SetOutput(io.Discard)
	fl.Bool("native-host", false, "")
	dir := fl.String("config-dir", "", "")
	wait := fl.Duration("wait", 30*time.Second, "")
	maxSessions := fl.Int("max-sessions", 8, "")
	idle := fl.Duration("idle", 30*time.Minute, "")
	if err := fl.Parse(args); err != nil {
		return nativeHostFlags{}, fmt.Errorf("modelcontext: --native-host: %v", err)
	}
	return nativeHostFlags{dir: *dir, wait: *wait, maxSessions: *maxSessions, idle: *idle, origin: fl.Arg(0)}, nil
}

// runNativeHost is Run with --native-host (or when Chrome passes the
// caller's origin first): args hold the launcher's flags, then Chrome's
// arguments.
func runNativeHost(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, opts options) (err error) {
	fl, err := parseNativeHostFlags(args)
	if err != nil {
		return err
	}
	ignoreBrokenPipe()
	if fl.origin != extensionOrigin {
		return fmt.Errorf("modelcontext: the native host answers only the modelcontext extension (%s), not %q: Chrome starts it for that extension, with its origin as the argument", extensionOrigin, fl.origin)
	}
	dir := fl.dir
	if dir == "" {
		var err error
		if dir, err = defaultConfigDir(); err != nil {
			return err
		}
	}
	cfg, err := readHostConfig(dir)
	if err != nil {
		return err
	}
	logf, closeLog := openHostLog(dir, stderr)
	defer closeLog()
	defer func() {
		if err != nil {
			logf("%v", err)
		}
	}()
	ln, err := listenLoopback(cfg.HTTP)
	if err != nil {
		return err
	}
	defer ln.Close()

	send, stopSending := startNativeWriter(stdout, logf)
	defer stopSending()

	tab := newTab(nil, "", "mcp-default", fl.wait, logf)
	tab.postFn = func(doc int64, channel string, payload []byte) {
		if n := send(hostMessage{Type: "post", Doc: doc, Channel: channel, Text: string(payload)}); n > 0 {
			tab.tooLarge(channel, payload, n)
		}
	}
	send(hostMessage{Type: "hello", Prefix: tab.prefix})

	hctx, cancel := context.WithCancel(ctx)
	defer cancel()
	h := newHTTPRelay(tab.openSession, cfg.Secret, ln.Addr(), nil, fl.maxSessions, fl.idle, logf)
	var bridges sync.WaitGroup
	h.upgrade = func(w http.ResponseWriter, r *http.Request) { serveBridge(hctx, tab, w, &bridges, logf) }
	h.secretNow = currentSecret(dir, cfg.Secret)
	srv, lln := newLimitedServer(h, ln, opts.limits, logf)
	if opts.onListen != nil {
		opts.onListen(lln)
	}
	url := "http://" + ln.Addr().String() + "/mcp/" + cfg.Secret
	running := filepath.Join(dir, runningFile)
	b, _ := json.Marshal(hostRunning{URL: url, PID: os.Getpid()})
	if err := writePrivate(running, b, 0o600); err != nil {
		return fmt.Errorf("modelcontext: %w", err)
	}
	defer os.Remove(running)
	logf("started for %s; serving MCP at http://%s/mcp (Streamable HTTP, and stdio clients: relay --extension)", fl.origin, ln.Addr())

	served := make(chan error, 1)
	go func() { served <- srv.Serve(lln) }()
	go h.sweepEvery(min(fl.idle/4, time.Minute))

	read := make(chan error, 1)
	go func() { read <- readFromExtension(stdin, tab, logf) }()

	err = serveNative(ctx, tab, read, served, send, logf)
	tab.lost(errors.New("modelcontext: the browser stopped exposing the tab (the visitor stopped it, or closed the tab or the browser); connect again once a tab is exposed"))
	h.close()
	cancel()
	sctx, scancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer scancel()
	srv.Shutdown(sctx)
	bridges.Wait()
	tab.close(sctx)
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// currentSecret returns a function that gives the secret in dir's
// configuration, read again whenever the file changed (relay
// --rotate-secret), so that a rotated secret stops opening the running
// host at once; it keeps the last one it read when the file is unreadable.
// writePrivate replaces the file by a rename, so a new file is a change
// even when its modification time is the old one's (a write within the
// same clock tick).
func currentSecret(dir, secret string) func() string {
	path := filepath.Join(dir, configFile)
	var mu sync.Mutex
	seen, _ := os.Stat(path)
	return func() string {
		mu.Lock()
		defer mu.Unlock()
		fi, err := os.Stat(path)
		if err != nil || seen != nil && os.SameFile(fi, seen) && fi.ModTime().Equal(seen.ModTime()) && fi.Size() == seen.Size() {
			return secret
		}
		if cfg, err := readHostConfig(dir); err == nil {
			seen, secret = fi, cfg.Secret
		}
		return secret
	}
}

// openHostLog returns the native host's log, a file beside the host's
// others (native-host.log in dir), or stderr when that file cannot be
// created, and what closes it. Chrome shows nothing of the host's stderr,
// and may have closed it (a write would then end the host with SIGPIPE).
func openHostLog(dir string, stderr io.Writer) (logf func(string, ...any), closeLog func()) {
	closeLog = func() {}
	if f, err := os.OpenFile(filepath.Join(dir, hostLogFile), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600); err == nil {
		closeLog = func() { f.Close() }
		stderr = f
	}
	var logMu sync.Mutex
	logf = func(format string, a ...any) {
		logMu.Lock()
		defer logMu.Unlock()
		fmt.Fprintf(stderr, "modelcontext: relay: native host: "+format+"\n", a...)
	}
	return logf, closeLog
}

// startNativeWriter starts writing native messages to stdout, in order, on
// a goroutine of their own. send queues one and returns 0, or, when it is
// over the browser's limit, drops it and returns its size; stop writes
// those queued and returns once they are written.
func startNativeWriter(stdout io.Writer, logf func(string, ...any)) (send func(hostMessage) int, stop func()) {
	out := newQueue[[]byte]()
	written := make(chan struct{})
	go func() {
		defer close(written)
		for {
			b, ok := out.pop()
			if !ok {
				return
			}
			if err := writeNative(stdout, b); err != nil {
				logf("writing to the browser: %v", err)
			}
		}
	}()
	send = func(m hostMessage) int {
		b, _ := json.Marshal(m)
		if len(b) > maxToExtension {
			logf("a message of %d bytes for the page was dropped: the browser takes at most %d from the host", len(b), maxToExtension)
			return len(b)
		}
		out.push(b)
		return 0
	}
	return send, func() { out.close(); <-written }
}

// tooLarge answers a client's request that was too large (size bytes as a
// native message) for the browser to carry to the page, as the page would
// have answered it, so that the client hears why instead of waiting.
func (t *Tab) tooLarge(channel string, payload []byte, size int) {
	m := parse(payload)
	if !m.isRequest() {
		return
	}
	t.mu.Lock()
	l := t.lanes[strings.TrimPrefix(channel, t.channel+"/")]
	t.mu.Unlock()
	if l == nil {
		return
	}
	answer := errorResponse(m.id, codeInvalidRequest, fmt.Sprintf("modelcontext: the request is too large for the browser: %d bytes as a native message, and the browser carries at most %d (1 MB) from the relay to the extension; send a smaller one", size, maxToExtension))
	go l.h.fromPage(answer) // the session holds its lock while it sends
}

// readFromExtension hands the extension's messages to tab until stdin
// fails, and returns why.
func readFromExtension(stdin io.Reader, tab *Tab, logf func(string, ...any)) error {
	for {
		b, err := readNative(stdin)
		if err != nil {
			return err
		}
		var m hostMessage
		if err := json.Unmarshal(b, &m); err != nil {
			logf("a message from the browser is not JSON: %.100s", b)
			continue
		}
		switch m.Type {
		case "page":
			if m.Doc > 0 {
				logf("the visitor exposed %s", m.URL)
				tab.newDocument(m.Doc, m.URL)
			}
		case "gone":
			tab.mu.Lock()
			current := m.Doc != 0 && m.Doc == tab.ctxID
			tab.mu.Unlock()
			if current {
				tab.documentGone()
			}
		case "msg":
			tab.onBinding(m.Doc, m.Channel+"\n"+m.Text)
		}
	}
}

// serveNative tells the extension the number of client sessions (the
// popup shows it) whenever it changes, until the extension's messages end
// (read: nil for the browser closing the connection), the HTTP server ends
// (served) or ctx is done, and returns the error that ended it.
func serveNative(ctx context.Context, tab *Tab, read, served <-chan error, send func(hostMessage) int, logf func(string, ...any)) error {
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	last := -1
	for {
		select {
		case err := <-read:
			if errors.Is(err, io.EOF) {
				err = nil
				logf("the browser closed the connection (the visitor stopped exposing the tab, or closed it or the browser)")
			}
			return err
		case err := <-served:
			return err
		case <-ctx.Done():
			return nil
		case <-tick.C:
			if n := tab.Lanes(); n != last {
				last = n
				send(hostMessage{Type: "status", Sessions: &n})
			}
		}
	}
}

// serveBridge serves one stdio client (relay --extension) on the
// connection its GET upgraded: newline-delimited JSON-RPC both ways, as
// over the relay's own stdin and stdout.
func serveBridge(ctx context.Context, tab *Tab, w http.ResponseWriter, wg *sync.WaitGroup, logf func(string, ...any)) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		refuse(w, http.StatusInternalServerError, "modelcontext: this connection cannot be upgraded")
		return
	}
	conn, rw, err := hj.Hijack()
	if err != nil {
		return
	}
	wg.Add(1)
	defer wg.Done()
	defer conn.Close()
	rw.WriteString("HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: " + stdioUpgrade + "\r\n\r\n")
	if rw.Flush() != nil {
		return
	}
	conn.SetDeadline(time.Time{})
	logf("a stdio client connected")
	err = serveStdio(ctx, tab, rw.Reader, conn)
	if err != nil && !errors.Is(err, net.ErrClosed) {
		logf("a stdio client's connection ended: %v", err)
	} else {
		logf("a stdio client left")
	}
}
