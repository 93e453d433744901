package relay

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// The extension (js/extension) and the two ends of the relay it needs: the
// native host Chrome starts ([runNativeHost]), installed by
// --install-native-host, and the stdio client a desktop MCP client starts
// (--extension), which connects to the running host.

// extensionKey is the public key in js/extension/manifest.json ("key"); it
// fixes the extension's id, which the host manifest allows and the host
// checks. TestExtensionKey fails when the two drift.
const extensionKey = "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAvj7v7Kk7eky4Rb8/w+437h27G7yA24uW0qAri5B+hZa7sw/aUkU8chGlF2ZUICJUMUSOTwpKjqytK9j60S0hSJ9TVwlvRDrqASsFxWzRAWZ/LmbeeZC0UGZpvnqIB205nvgMcih49gRlaKUNBLQtBTA2CxiiTMubHXD5Eb7p7zb4X2nX870SrCQ5p6PDPVBOh5dFekuj9xHjklrdHQ73JW7H939UmCoAZ1yMvzbfKCK8lqjP5cSDhP72r+oZcUreBvaliA7KLrHxknq4EmDW8qCr1k4h9lcWLEcvENOlDLjEOJ+iVk0cdDfAPX4dvNyb4xOpBDTL2cKxa99azcC2rwIDAQAB"

// ExtensionID is the extension's id, derived from its key as Chrome does:
// the first 16 bytes of the SHA-256 of the key, in hex written with a-p.
var ExtensionID = extensionID(extensionKey)

// extensionOrigin is the origin Chrome passes the host for the extension.
var extensionOrigin = "chrome-extension://" + ExtensionID + "/"

func extensionID(key string) string {
	der, err := base64.StdEncoding.DecodeString(key)
	if err != nil {
		panic("relay: the extension's key is not base64: " + err.Error())
	}
	sum := sha256.Sum256(der)
	id := make([]byte, 32)
	for i, b := range sum[:16] {
		id[2*i], id[2*i+1] = 'a'+b>>4, 'a'+b&0xf
	}
	return string(id)
}

// mode returns which relay args ask for: "native-host" (also when Chrome
// passes the extension's origin first), "install", "rotate", "extension",
// or "".
func mode(args []string) string {
	if len(args) > 0 && strings.HasPrefix(args[0], "chrome-extension://") {
		return "native-host"
	}
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			continue // a flag's value
		}
		switch strings.TrimLeft(a, "-") {
		case "native-host":
			return "native-host"
		case "install-native-host":
			return "install"
		case "extension":
			return "extension"
		case "rotate-secret":
			return "rotate"
		}
	}
	return ""
}

// nativeHostDirs are the directories Chromium and Chrome read user-level
// host manifests from: <user data dir>/NativeMessagingHosts, for the
// default user data directories.
func nativeHostDirs() ([]string, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return nil, err
	}
	switch runtime.GOOS {
	case "linux":
		cfg := os.Getenv("XDG_CONFIG_HOME")
		if cfg == "" {
			cfg = filepath.Join(home, ".config")
		}
		return []string{filepath.Join(cfg, "chromium"), filepath.Join(cfg, "google-chrome")}, nil
	case "darwin":
		as := filepath.Join(home, "Library", "Application Support")
		return []string{filepath.Join(as, "Chromium"), filepath.Join(as, "Google", "Chrome")}, nil
	}
	return nil, fmt.Errorf("modelcontext: --install-native-host knows Linux and macOS, not %s", runtime.GOOS)
}

func isLoopbackIP(s string) bool {
	ip := net.ParseIP(s)
	return ip != nil && ip.IsLoopback()
}

// shellQuote quotes s for /bin/sh.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// runInstall is Run with --install-native-host: it writes the host's
// configuration (a secret, the HTTP address), its launcher, and its
// manifest for Chromium and Chrome, then prints the client configurations.
func runInstall(args []string, stdout io.Writer) error {
	fl := flag.NewFlagSet("relay", flag.ContinueOnError)
	fl.SetOutput(io.Discard)
	fl.Bool("install-native-host", false, "")
	dirFlag := fl.String("config-dir", "", "")
	httpAddr := fl.String("http", "", "")
	var profiles multiFlag
	fl.Var(&profiles, "user-data-dir", "")
	if err := fl.Parse(args); err != nil {
		return fmt.Errorf("modelcontext: --install-native-host: %v", err)
	}
	if fl.NArg() > 0 {
		return fmt.Errorf("modelcontext: --install-native-host: unexpected argument %q", fl.Arg(0))
	}
	// The host listens there later; the address may be busy now (a host
	// already running), but it must be loopback.
	if *httpAddr != "" {
		if host, _, err := net.SplitHostPort(*httpAddr); err != nil || host != "localhost" && !isLoopbackIP(host) {
			return fmt.Errorf("modelcontext: --http %s: the native host listens only on a loopback address and port, like 127.0.0.1:49152 (without --http, the install picks a free one)", *httpAddr)
		}
	}
	dir := *dirFlag
	if dir == "" {
		var err error
		if dir, err = defaultConfigDir(); err != nil {
			return err
		}
	}
	dir, _ = filepath.Abs(dir)
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err != nil {
		return fmt.Errorf("modelcontext: finding the relay's executable: %w", err)
	}
	if strings.Contains(exe, string(filepath.Separator)+"go-build") {
		return errors.New("modelcontext: --install-native-host needs a relay that stays where it is, not one from go run: go build -o ~/bin/relay ./wasm/cmd/relay (or make native-host), then run that")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("modelcontext: %w", err)
	}
	// The port and the secret are this install's: a port no other install
	// shares (a fixed one could be taken first by another user, who would
	// then collect the secret), and a random secret. Both are kept when the
	// host is installed again, since the clients' configuration holds them;
	// relay --rotate-secret makes a new secret.
	cfg, err := readHostConfig(dir)
	if err != nil {
		cfg = hostConfig{Secret: randomHex(16)}
	}
	switch {
	case *httpAddr != "":
		cfg.HTTP = *httpAddr
	case cfg.HTTP == "":
		if cfg.HTTP, err = freeLoopbackAddr(); err != nil {
			return err
		}
	}
	if err := writeHostConfig(dir, cfg); err != nil {
		return err
	}
	// Chrome passes a host no arguments of ours: the launcher adds them.
	launcher := filepath.Join(dir, "native-host")
	script := "#!/bin/sh\n# Chrome starts this for the modelcontext extension; written by relay --install-native-host.\nexec " +
		shellQuote(exe) + " --native-host --config-dir " + shellQuote(dir) + " \"$@\"\n"
	if err := writePrivate(launcher, []byte(script), 0o700); err != nil {
		return fmt.Errorf("modelcontext: %w", err)
	}
	if err := installManifests(launcher, profiles, stdout); err != nil {
		return err
	}
	stdio, _ := json.MarshalIndent(map[string]any{"mcpServers": map[string]any{"browser-tab": map[string]any{"command": exe, "args": []string{"--extension"}}}}, "", "  ")
	fmt.Fprintf(stdout, "the extension's id: %s\n\nA desktop client that starts its servers (stdio):\n%s\n\nOr one that connects (Streamable HTTP, once a tab is exposed):\n  http://%s/mcp/%s\n", ExtensionID, stdio, cfg.HTTP, cfg.Secret)
	return nil
}

// installManifests writes the native host's manifest, which names launcher,
// into the NativeMessagingHosts folder of each profile given, or of every
// Chromium and Chrome profile folder found.
func installManifests(launcher string, profiles []string, stdout io.Writer) error {
	manifest, _ := json.MarshalIndent(map[string]any{
		"name":            nativeHostName,
		"description":     "modelcontext relay: serves the tab you expose in the modelcontext extension to desktop MCP clients",
		"path":            launcher,
		"type":            "stdio",
		"allowed_origins": []string{extensionOrigin},
	}, "", "  ")
	targets := profiles
	if len(targets) == 0 {
		all, err := nativeHostDirs()
		if err != nil {
			return err
		}
		for _, d := range all {
			if _, err := os.Stat(d); err == nil {
				targets = append(targets, d)
			}
		}
		if len(targets) == 0 {
			return fmt.Errorf("modelcontext: neither Chromium nor Chrome has a profile here (looked for %s); start the browser once, or pass --user-data-dir DIR", strings.Join(all, " and "))
		}
	}
	for _, d := range targets {
		hosts := filepath.Join(d, "NativeMessagingHosts")
		if err := os.MkdirAll(hosts, 0o755); err != nil {
			return fmt.Errorf("modelcontext: %w", err)
		}
		path := filepath.Join(hosts, nativeHostName+".json")
		if err := os.WriteFile(path, append(manifest, '\n'), 0o644); err != nil {
			return fmt.Errorf("modelcontext: %w", err)
		}
		fmt.Fprintf(stdout, "installed the native host manifest %s\n", path)
	}
	return nil
}

// freeLoopbackAddr returns 127.0.0.1 and a port that is free now, for the
// native host to listen on from then on.
func freeLoopbackAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("modelcontext: finding a free loopback port for the native host: %w; pass --http 127.0.0.1:PORT", err)
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

func writeHostConfig(dir string, cfg hostConfig) error {
	b, _ := json.MarshalIndent(cfg, "", "  ")
	if err := writePrivate(filepath.Join(dir, configFile), append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("modelcontext: %w", err)
	}
	return nil
}

// runRotateSecret is Run with --rotate-secret: it writes a new secret for
// the native host (relay.json; a running host reads it there at its next
// request), and prints the new URL for clients.
func runRotateSecret(args []string, stdout io.Writer) error {
	fl := flag.NewFlagSet("relay", flag.ContinueOnError)
	fl.SetOutput(io.Discard)
	fl.Bool("rotate-secret", false, "")
	dirFlag := fl.String("config-dir", "", "")
	if err := fl.Parse(args); err != nil {
		return fmt.Errorf("modelcontext: --rotate-secret: %v", err)
	}
	if fl.NArg() > 0 {
		return fmt.Errorf("modelcontext: --rotate-secret: unexpected argument %q", fl.Arg(0))
	}
	dir := *dirFlag
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
	cfg.Secret = randomHex(16)
	if err := writeHostConfig(dir, cfg); err != nil {
		return err
	}
	// A running host takes the new secret at its next request; its stdio
	// clients find it with the URL in the running file.
	running := filepath.Join(dir, runningFile)
	if b, err := os.ReadFile(running); err == nil {
		var run hostRunning
		if json.Unmarshal(b, &run) == nil {
			if base, _, ok := strings.Cut(run.URL, "/mcp/"); ok {
				run.URL = base + "/mcp/" + cfg.Secret
				b, _ = json.Marshal(run)
				writePrivate(running, b, 0o600)
			}
		}
	}
	fmt.Fprintf(stdout, "a new secret for the native host; the old one opens nothing from now on.\nClients that connect (Streamable HTTP) use:\n  http://%s/mcp/%s\nClients that start relay --extension need no change.\n", cfg.HTTP, cfg.Secret)
	return nil
}

// runExtensionClient is Run with --extension: the stdio server a desktop
// client starts. It connects to the native host (waiting up to --wait for
// the visitor to expose a tab) and passes stdin and stdout through as they
// are.
func runExtensionClient(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("relay", flag.ContinueOnError)
	fl.SetOutput(io.Discard)
	fl.Bool("extension", false, "")
	fl.Bool("stdio", false, "")
	dirFlag := fl.String("config-dir", "", "")
	wait := fl.Duration("wait", 30*time.Second, "")
	if err := fl.Parse(args); err != nil {
		return fmt.Errorf("modelcontext: --extension: %v (the native host serves Streamable HTTP itself, at the URL --install-native-host printed)", err)
	}
	dir := *dirFlag
	if dir == "" {
		var err error
		if dir, err = defaultConfigDir(); err != nil {
			return err
		}
	}
	logf := func(format string, a ...any) { fmt.Fprintf(stderr, "modelcontext: relay: "+format+"\n", a...) }
	deadline := time.Now().Add(*wait)
	var conn net.Conn
	var br *bufio.Reader
	for said := false; ; said = true {
		var err error
		conn, br, err = dialHost(ctx, dir)
		if err == nil {
			break
		}
		if !said {
			logf("waiting for the browser (up to %v): click the modelcontext extension's icon and expose a tab", *wait)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("modelcontext: no tab is exposed (%v): click the modelcontext extension's icon in the browser and expose a tab, then start the client again", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(200 * time.Millisecond):
		}
	}
	defer conn.Close()
	logf("connected to the tab the browser exposes")
	inDone := make(chan struct{})
	go func() {
		io.Copy(conn, stdin)
		close(inDone)
		if c, ok := conn.(*net.TCPConn); ok {
			c.CloseWrite()
		}
	}()
	outDone := make(chan error, 1)
	go func() { _, err := io.Copy(stdout, br); outDone <- err }()
	select {
	case <-ctx.Done():
		return nil
	case err := <-outDone:
		select {
		case <-inDone:
			return nil // the client left first
		default:
		}
		if err == nil {
			err = errors.New("the browser stopped exposing the tab (the visitor stopped it, or closed the tab or the browser)")
		}
		return fmt.Errorf("modelcontext: %v", err)
	}
}

// dialHost connects to the running native host and upgrades to a stdio
// stream.
func dialHost(ctx context.Context, dir string) (net.Conn, *bufio.Reader, error) {
	b, err := os.ReadFile(filepath.Join(dir, runningFile))
	if err != nil {
		return nil, nil, errors.New("the native host is not running")
	}
	var run hostRunning
	if err := json.Unmarshal(b, &run); err != nil {
		return nil, nil, err
	}
	u, err := url.Parse(run.URL)
	if err != nil {
		return nil, nil, err
	}
	secret := strings.TrimPrefix(u.Path, "/mcp/")
	var d net.Dialer
	dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	conn, err := d.DialContext(dctx, "tcp", u.Host)
	if err != nil {
		return nil, nil, err
	}
	req, _ := http.NewRequest(http.MethodGet, "http://"+u.Host+"/mcp", nil)
	req.Header.Set("Authorization", "Bearer "+secret)
	req.Header.Set("Connection", "Upgrade")
	req.Header.Set("Upgrade", stdioUpgrade)
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	if err := req.Write(conn); err != nil {
		conn.Close()
		return nil, nil, err
	}
	br := bufio.NewReaderSize(conn, 64<<10)
	resp, err := http.ReadResponse(br, req)
	if err != nil {
		conn.Close()
		return nil, nil, err
	}
	if resp.StatusCode != http.StatusSwitchingProtocols {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		conn.Close()
		return nil, nil, fmt.Errorf("the native host refused (HTTP %d): %s", resp.StatusCode, strings.TrimSpace(string(body)))
	}
	conn.SetDeadline(time.Time{})
	return conn, br, nil
}
