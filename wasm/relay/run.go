package relay

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto"
	"github.com/chromedp/cdproto/target"
)

const usage = `usage: relay (--url URL | --attach ADDR [--tab ID|URL]) [--stdio | --http 127.0.0.1:PORT] [flags]
       relay --extension [--wait 30s]
       relay --install-native-host [--http 127.0.0.1:PORT] [--user-data-dir DIR]
       relay --rotate-secret

Serves the MCP server of one browser tab (a page that loads modelcontext.js
with data-mcp data-mcp-sessions) to MCP clients outside the browser.

  --url URL          open URL in a headless Chromium the relay starts (and stops)
  --attach ADDR      use a running browser started with --remote-debugging-port,
                     e.g. http://127.0.0.1:9222; the tab is never navigated or closed
  --tab ID|URL       with --attach: the tab, by target id, URL or URL prefix
                     (needed when the browser has more than one tab)
  --stdio            serve the client that started the relay, on stdin/stdout (default)
  --http ADDR        serve MCP's Streamable HTTP on a loopback ADDR, e.g. 127.0.0.1:8765;
                     prints the URL, with a secret, that clients must use
  --extension        serve, over stdio, the tab the visitor exposes in the modelcontext
                     extension (its native host, which Chrome starts, must be installed)
  --install-native-host
                     install the native host for Chromium and Chrome (or the profile
                     --user-data-dir); it serves Streamable HTTP on a loopback port and
                     with a secret of this install's (--http picks the address), and
                     prints the client configurations
  --rotate-secret    give the installed native host a new secret, and print its new URL
`

// Run is the relay command: main calls it with the command line (without
// the program name), and returns its error.
//
// It returns nil when ctx ends it (Ctrl-C), when the stdio client goes
// away, or with --help.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	return run(ctx, args, stdin, stdout, stderr, options{limits: defaultConnLimits})
}

// options are what a run takes besides its command line: tests lower the
// limits, and reach the tab and the HTTP listener.
type options struct {
	limits   connLimits
	onTab    func(*Tab)           // with the tab, once the relay attached to it
	onListen func(*limitListener) // with the HTTP server's listener
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, opts options) (err error) {
	defer func() {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			err = nil // interrupted while starting
		}
	}()
	switch mode(args) {
	case "native-host":
		return runNativeHost(ctx, args, stdin, stdout, stderr, opts)
	case "install":
		return runInstall(args, stdout)
	case "rotate":
		return runRotateSecret(args, stdout)
	case "extension":
		return runExtensionClient(ctx, args, stdin, stdout, stderr)
	}
	cfg, err := parseFlags(args, stdout)
	if err != nil || cfg == nil {
		return err // an error, or --help printed
	}
	logf := func(format string, a ...any) { fmt.Fprintf(stderr, "modelcontext: relay: "+format+"\n", a...) }
	return runCDP(ctx, cfg, stdin, stdout, logf, opts)
}

// config is what the flags of the DevTools modes (--url, --attach) say.
type config struct {
	pageURL, attach, tab, httpAddr, channel, chromium string
	wait, idle                                        time.Duration
	maxSessions                                       int
	origins                                           multiFlag
}

// parseFlags reads the flags of the DevTools modes. It returns a nil config
// (and no error) once --help has printed the usage.
func parseFlags(args []string, stdout io.Writer) (*config, error) {
	fl := flag.NewFlagSet("relay", flag.ContinueOnError)
	fl.SetOutput(io.Discard)
	pageURL := fl.String("url", "", "")
	attach := fl.String("attach", "", "")
	tabFlag := fl.String("tab", "", "")
	stdio := fl.Bool("stdio", false, "")
	httpAddr := fl.String("http", "", "")
	channel := fl.String("channel", "mcp-default", "the page's MCP channel (data-mcp=\"name\")")
	chromiumFlag := fl.String("chromium", "", "the Chromium to launch with --url (default $CHROMIUM, /usr/bin/chromium, or chromium on PATH)")
	wait := fl.Duration("wait", 30*time.Second, "how long to wait for the page's MCP server, at start and after a reload or a crash")
	maxSessions := fl.Int("max-sessions", 8, "HTTP: 2025-11-25 sessions at once; a new one ends the one unused the longest")
	idle := fl.Duration("idle", 30*time.Minute, "HTTP: end a 2025-11-25 session unused (no request, no open stream) for this long")
	var origins multiFlag
	fl.Var(&origins, "allow-origin", "HTTP: also answer requests from a web page of this origin (repeatable)")
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, usage)
			fl.SetOutput(stdout)
			fl.VisitAll(func(f *flag.Flag) {
				switch {
				case f.Usage == "":
				case f.DefValue == "":
					fmt.Fprintf(stdout, "  --%-16s %s\n", f.Name, f.Usage)
				default:
					fmt.Fprintf(stdout, "  --%-16s %s (default %s)\n", f.Name, f.Usage, f.DefValue)
				}
			})
			return nil, nil
		}
		return nil, fmt.Errorf("modelcontext: %v\n%s", err, usage)
	}
	switch {
	case fl.NArg() > 0:
		return nil, fmt.Errorf("modelcontext: unexpected argument %q\n%s", fl.Arg(0), usage)
	case (*pageURL == "") == (*attach == ""):
		return nil, fmt.Errorf("modelcontext: give exactly one of --url and --attach\n%s", usage)
	case *tabFlag != "" && *attach == "":
		return nil, errors.New("modelcontext: --tab picks a tab of the browser given with --attach")
	case *stdio && *httpAddr != "":
		return nil, errors.New("modelcontext: give --stdio or --http, not both")
	case *channel == "" || strings.ContainsAny(*channel, "\n"):
		return nil, errors.New("modelcontext: --channel must be the page's MCP channel, e.g. mcp-default")
	case *maxSessions < 1:
		return nil, errors.New("modelcontext: --max-sessions must be at least 1")
	case *wait <= 0 || *idle <= 0:
		return nil, errors.New("modelcontext: --wait and --idle must be positive durations, e.g. 30s")
	}
	if *pageURL != "" {
		if _, err := servableOrigin(*pageURL); err != nil {
			return nil, err
		}
	}
	return &config{pageURL: *pageURL, attach: *attach, tab: *tabFlag, httpAddr: *httpAddr, channel: *channel, chromium: *chromiumFlag,
		wait: *wait, idle: *idle, maxSessions: *maxSessions, origins: origins}, nil
}

// runCDP runs the relay against a page reached over the DevTools protocol:
// a Chromium it launches (--url) or one it attaches to (--attach).
func runCDP(ctx context.Context, cfg *config, stdin io.Reader, stdout io.Writer, logf func(string, ...any), opts options) error {
	var current atomic.Pointer[Tab]
	var ln net.Listener
	if cfg.httpAddr != "" {
		var err error
		if ln, err = listenLoopback(cfg.httpAddr); err != nil {
			return err
		}
		defer ln.Close()
	}

	onEvent := func(ev *cdproto.Message) {
		if debugRelay && ev.Method != "Runtime.consoleAPICalled" {
			logf("event %s %s %.300s", ev.SessionID, ev.Method, ev.Params)
		}
		if t := current.Load(); t != nil {
			t.handle(ev)
		}
	}
	c, br, exe, closeBrowser, err := openBrowser(ctx, cfg, onEvent, logf)
	if err != nil {
		return err
	}
	defer closeBrowser()

	// The tab.
	setup, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	id, desc, err := pickTab(setup, c, cfg.tab, br != nil)
	if err != nil {
		if br != nil {
			err = fmt.Errorf("modelcontext: %w", br.started(exe, err))
		}
		return err
	}
	tab := newTab(c, id, cfg.channel, cfg.wait, logf)
	tab.pinned = true // to the first site the tab shows, or --url's
	tab.reloadOnCrash = br != nil
	if cfg.pageURL != "" {
		tab.origin, _ = servableOrigin(cfg.pageURL)
	}
	current.Store(tab)
	go func() {
		<-c.done
		tab.lost(errors.New("modelcontext: the browser went away (it exited, or closed the DevTools connection)"))
	}()
	if err := tab.inject(setup); err != nil {
		return fmt.Errorf("modelcontext: attaching to the tab: %w", err)
	}
	if opts.onTab != nil {
		opts.onTab(tab)
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		tab.close(ctx)
	}()
	if br != nil {
		if err := c.call(setup, tab.session(), "Page.navigate", map[string]any{"url": cfg.pageURL}, nil); err != nil {
			return fmt.Errorf("modelcontext: opening %s: %w", cfg.pageURL, err)
		}
		logf("started Chromium (headless) and opened %s", cfg.pageURL)
	} else {
		logf("attached to the tab %s", desc)
	}
	if err := tab.waitReady(ctx); err != nil {
		return err
	}

	if ln == nil {
		logf("serving MCP over stdio")
		return serveStdio(ctx, tab, stdin, stdout)
	}
	return serveHTTP(ctx, tab, ln, cfg.origins, cfg.maxSessions, cfg.idle, stdout, logf, opts)
}

// openBrowser launches Chromium (--url) or attaches to one (--attach) and
// connects to it over the DevTools protocol; closeBrowser closes the
// connection, and a launched browser.
func openBrowser(ctx context.Context, cfg *config, onEvent func(*cdproto.Message), logf func(string, ...any)) (c *cdpConn, br *chromium, exe string, closeBrowser func(), err error) {
	if cfg.pageURL == "" {
		wsURL, err := browserEndpoint(ctx, cfg.attach)
		if err != nil {
			return nil, nil, "", nil, fmt.Errorf("modelcontext: %w", err)
		}
		if c, err = dialCDP(ctx, wsURL, onEvent); err != nil {
			return nil, nil, "", nil, fmt.Errorf("modelcontext: %w", err)
		}
		return c, nil, "", c.close, nil
	}
	if exe, err = chromiumPath(cfg.chromium); err != nil {
		return nil, nil, "", nil, fmt.Errorf("modelcontext: %w", err)
	}
	if br, err = launchChromium(exe); err != nil {
		return nil, nil, "", nil, fmt.Errorf("modelcontext: %w", err)
	}
	c = newCDPConn(br.pipe, onEvent)
	return c, br, exe, func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		c.call(ctx, "", "Browser.close", nil, nil)
		cancel()
		c.close()
		if err := br.close(10 * time.Second); err != nil {
			logf("%v", err)
		}
	}, nil
}

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// listenLoopback listens on addr, which must be a loopback address.
func listenLoopback(addr string) (net.Listener, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("modelcontext: --http %s: want a loopback address and port, like 127.0.0.1:8765", addr)
	}
	if host == "localhost" {
		host = "127.0.0.1"
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return nil, fmt.Errorf("modelcontext: --http %s: the relay listens only on a loopback address such as 127.0.0.1:%s: the page would be readable by anything that can reach the port", addr, port)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, port))
	if err != nil {
		return nil, fmt.Errorf("modelcontext: --http %s: %w", addr, err)
	}
	return ln, nil
}

// pickTab returns the one page target to relay. A launched browser has one;
// an attached one must have exactly one that matches --tab (a target id, a
// URL, or a URL prefix), or exactly one tab if --tab is not given.
func pickTab(ctx context.Context, c *cdpConn, want string, launched bool) (target.ID, string, error) {
	var res struct {
		Targets []struct {
			ID    target.ID `json:"targetId"`
			Type  string    `json:"type"`
			URL   string    `json:"url"`
			Title string    `json:"title"`
		} `json:"targetInfos"`
	}
	if err := c.call(ctx, "", "Target.getTargets", nil, &res); err != nil {
		return "", "", fmt.Errorf("modelcontext: listing the browser's tabs: %w", err)
	}
	type tabInfo struct {
		id        target.ID
		url, desc string
	}
	var tabs []tabInfo
	for _, t := range res.Targets {
		if t.Type == "page" && !strings.HasPrefix(t.URL, "devtools://") {
			tabs = append(tabs, tabInfo{t.ID, t.URL, fmt.Sprintf("%s %s (%q)", t.ID, t.URL, t.Title)})
		}
	}
	list := func(ts []tabInfo) string {
		var b strings.Builder
		for _, t := range ts {
			b.WriteString("\n  " + t.desc)
		}
		return b.String()
	}
	if launched {
		if len(tabs) == 0 {
			return "", "", errors.New("modelcontext: the browser the relay started has no tab")
		}
		return tabs[0].id, tabs[0].desc, nil
	}
	var match []tabInfo
	if want == "" {
		match = tabs
	} else {
		for _, t := range tabs {
			if string(t.id) == want || t.url == want {
				match = []tabInfo{t}
				break
			}
			if strings.HasPrefix(t.url, want) {
				match = append(match, t)
			}
		}
	}
	switch {
	case len(match) == 1:
		return match[0].id, match[0].desc, nil
	case len(tabs) == 0:
		return "", "", errors.New("modelcontext: the browser has no tab open; open the page first")
	case want == "":
		return "", "", fmt.Errorf("modelcontext: the browser has %d tabs; pick one with --tab (its id, URL or URL prefix):%s", len(tabs), list(tabs))
	case len(match) == 0:
		return "", "", fmt.Errorf("modelcontext: no tab matches --tab %s; the tabs are:%s", want, list(tabs))
	default:
		return "", "", fmt.Errorf("modelcontext: %d tabs match --tab %s; give its id or a longer URL:%s", len(match), want, list(match))
	}
}

// serveHTTP serves Streamable HTTP on ln until ctx is done or the tab goes.
func serveHTTP(ctx context.Context, tab *Tab, ln net.Listener, origins []string, maxSessions int, idle time.Duration, stdout io.Writer, logf func(string, ...any), opts options) error {
	secret := randomHex(16)
	h := newHTTPRelay(tab.openSession, secret, ln.Addr(), origins, maxSessions, idle, logf)
	srv, lln := newLimitedServer(h, ln, opts.limits, logf)
	if opts.onListen != nil {
		opts.onListen(lln)
	}
	base := "http://" + ln.Addr().String() + "/mcp"
	fmt.Fprintf(stdout, "%s/%s\n", base, secret)
	logf("serving MCP over Streamable HTTP at %s/%s (the URL holds a secret; or use %s with Authorization: Bearer %s)", base, secret, base, secret)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(lln) }()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); h.sweepEvery(min(idle/4, time.Minute)) }()
	var err error
	select {
	case err = <-served:
	case <-ctx.Done():
	case <-tab.goneCh:
		err = tab.gone
	}
	h.close()
	wg.Wait()
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	srv.Shutdown(sctx)
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}
