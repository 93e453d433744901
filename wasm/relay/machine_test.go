package relay

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The guards on the visitor's machine (SECURITY.md): what another local
// process, or a site the tab wanders to, could otherwise get from the relay.

// TestLaunchNoDebuggingPort: the Chromium the relay starts (--url) speaks
// DevTools on a pipe only: none of its processes has a debugging port in
// its arguments or a listening TCP socket, which any local process could
// connect to and drive the browser with.
func TestLaunchNoDebuggingPort(t *testing.T) {
	requireBuild(t)
	exe, err := chromiumFor(t)
	if err != nil {
		t.Fatal(err)
	}
	before := profileDirs()
	r := startRelay(t, "--url", pageURL(t), "--chromium", exe)
	c := connectStdio(t, r, legacy)
	if got := c.read("test://a"); got != `{"a":0}` {
		t.Fatalf("read: %s", got)
	}
	dirs := newOnes(profileDirs(), before)
	if len(dirs) != 1 {
		t.Fatalf("profile directories the relay made: %v", dirs)
	}
	procs := processesWith(dirs[0])
	if len(procs) == 0 {
		t.Fatalf("no process mentions the profile %s", dirs[0])
	}
	sockets := map[string]string{} // socket inode → the process that holds it
	for _, p := range procs {
		pid, cmdline, _ := strings.Cut(p, ": ")
		if strings.Contains(cmdline, "--remote-debugging-port") || strings.Contains(cmdline, "--remote-debugging-address") {
			t.Errorf("process %s has a debugging port: %s", pid, cmdline)
		}
		if !strings.Contains(cmdline, "--type=") && !strings.Contains(cmdline, "--remote-debugging-pipe") {
			t.Errorf("the browser process %s runs without --remote-debugging-pipe: %s", pid, cmdline)
		}
		fds, _ := filepath.Glob("/proc/" + pid + "/fd/*")
		for _, fd := range fds {
			if l, err := os.Readlink(fd); err == nil && strings.HasPrefix(l, "socket:[") {
				sockets[strings.TrimSuffix(strings.TrimPrefix(l, "socket:["), "]")] = pid
			}
		}
	}
	listening := 0
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		f, err := os.Open(table)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			// sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
			fields := strings.Fields(sc.Text())
			if len(fields) < 10 || fields[3] != "0A" { // 0A: LISTEN
				continue
			}
			listening++
			if pid, ok := sockets[fields[9]]; ok {
				t.Errorf("Chromium process %s listens on %s (%s)", pid, fields[1], table)
			}
		}
		f.Close()
	}
	if listening == 0 {
		t.Fatal("no listening socket in /proc/net/tcp*: the check sees nothing (browsertest's server listens)")
	}
	t.Logf("%d Chromium processes, %d sockets", len(procs), len(sockets))
}

// otherOrigin serves what browsertest's server serves, from another
// origin: 127.0.0.1 on another port.
func otherOrigin(t *testing.T) *httptest.Server {
	base, err := url.Parse(browsertestURL(t, "/"))
	if err != nil {
		t.Fatal(err)
	}
	base.Path, base.RawQuery = "", ""
	s := httptest.NewServer(httputil.NewSingleHostReverseProxy(base))
	t.Cleanup(s.Close)
	return s
}

// waitEndedOrServing waits until the relay r returns (its error) or says,
// after the first from bytes of its stderr, that it serves a page (a
// failure of these tests: it serves the other site).
func waitEndedOrServing(t *testing.T, r *relayRun, from int) error {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		select {
		case err := <-r.done:
			r.err, r.ended = err, true
			return err
		case <-time.After(20 * time.Millisecond):
		}
		if strings.Contains(r.stderr.String()[from:], "serves MCP with sessions") {
			t.Fatalf("the relay serves the page on the other site:\n%s", r.stderr)
		}
		if time.Now().After(deadline) {
			t.Fatalf("the relay neither ended nor served within %v:\n%s", timeout, r.stderr)
		}
	}
}

// TestRedirectToOtherOrigin: --url names one site; a redirect to another
// (a page that serves MCP there) is not served: the relay ends, saying so.
func TestRedirectToOtherOrigin(t *testing.T) {
	requireBuild(t)
	exe, err := chromiumFor(t)
	if err != nil {
		t.Fatal(err)
	}
	target := pageURL(t)
	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		http.Redirect(w, req, target, http.StatusFound)
	}))
	defer redirect.Close()
	r := startRelay(t, "--url", redirect.URL+"/start", "--chromium", exe)
	err = waitEndedOrServing(t, r, 0)
	r.err = nil
	if err == nil || !strings.Contains(err.Error(), "the tab went to another site") || !strings.Contains(err.Error(), target) {
		t.Errorf("Run returned %v", err)
	}
}

// TestNavigateToOtherOrigin: a client reads the attached tab; the tab
// navigates to another origin whose page serves MCP too. The client's next
// read is answered with an error naming the other site, the relay ends,
// and the page there never got a session from it.
func TestNavigateToOtherOrigin(t *testing.T) {
	p := openPage(t, "")
	r := startRelay(t, p.attachArgs()...)
	c := connectStdio(t, r, legacy)
	if got := c.read("test://a"); got != `{"a":0}` {
		t.Fatalf("read: %s", got)
	}
	u, _ := url.Parse(p.url)
	other := otherOrigin(t).URL + u.RequestURI()
	from := len(r.stderr.String())
	p.Navigate(other)
	err := waitEndedOrServing(t, r, from)
	r.err = nil
	if err == nil || !strings.Contains(err.Error(), "the tab went to another site") {
		t.Errorf("Run returned %v", err)
	}
	if _, rerr := c.ReadResource(c.ctx(), &mcp.ReadResourceParams{URI: "test://a"}); rerr == nil {
		t.Error("a read after the relay ended succeeded")
	}
	var sessions int
	p.Eval(`(async () => { while (!window.relayTest) await new Promise((r) => setTimeout(r, 10)); return relayTest.sessions(); })()`, &sessions)
	if sessions != 0 {
		t.Errorf("the page on the other site serves %d sessions for the relay", sessions)
	}
}

// TestServableOrigin: the pages the relay serves, on both paths: https,
// and plain http only on loopback.
func TestServableOrigin(t *testing.T) {
	for _, tc := range []struct {
		url, origin string // origin "" when refused
	}{
		{"https://shop.example/cart?x=1", "https://shop.example"},
		{"http://127.0.0.1:8080/", "http://127.0.0.1:8080"},
		{"http://127.9.9.9/", "http://127.9.9.9"},
		{"http://localhost:3000/app", "http://localhost:3000"},
		{"http://[::1]:8080/", "http://[::1]:8080"},
		{"http://shop.example/", ""},
		{"http://192.168.1.10/", ""},
		{"http://localhost.evil.example/", ""},
		{"http://127.0.0.1.nip.io/", ""},
		{"file:///tmp/page.html", ""},
		{"chrome://settings", ""},
	} {
		got, err := servableOrigin(tc.url)
		if got != tc.origin || (err == nil) != (tc.origin != "") {
			t.Errorf("servableOrigin(%q) = %q, %v; want %q", tc.url, got, err, tc.origin)
		}
	}
	// --url refuses plain http elsewhere before it starts anything.
	err := Run(t.Context(), []string{"--url", "http://shop.example/"}, strings.NewReader(""), &syncBuffer{}, &syncBuffer{})
	if err == nil || !strings.Contains(err.Error(), "modelcontext: http://shop.example/ is plain http on another machine") {
		t.Errorf("--url http://shop.example/: %v", err)
	}
}

// TestNativeHostPlainHTTP: the extension path refuses a plain http page on
// another machine too (the extension does not let the visitor allow such a
// site; the host holds the line as well): nothing is posted to it, and the
// next page, on https, is asked first.
func TestNativeHostPlainHTTP(t *testing.T) {
	f := startHost(t, extensionOrigin)
	f.next("hello")
	f.send(hostMessage{Type: "page", Doc: 1, URL: "http://shop.example/"})
	f.send(hostMessage{Type: "page", Doc: 2, URL: "https://shop.example/"})
	if m := f.next("post"); m.Doc != 2 || m.Text != `"mcp-check-ready"` {
		t.Fatalf("the host's first post: %+v; want mcp-check-ready to document 2", m)
	}
}

// hostUp brings the fake extension's page up behind the host f (a server
// that serves sessions) and returns the host's address (from the running
// file) and the probe's sub-channel.
func hostUp(t *testing.T, f *fakeExtension) (addr, probe string) {
	t.Helper()
	prefix := f.next("hello").Prefix
	f.send(hostMessage{Type: "page", Doc: 1, URL: "https://shop.example/"})
	f.next("post") // mcp-check-ready
	f.send(hostMessage{Type: "msg", Doc: 1, Channel: "mcp-default", Text: `"mcp-server-ready"`})
	p := f.next("post")
	if !strings.HasPrefix(p.Channel, "mcp-default/"+prefix) {
		t.Fatalf("probe: %+v", p)
	}
	f.send(hostMessage{Type: "msg", Doc: 1, Channel: p.Channel, Text: `"mcp-server-ready"`})
	u, err := url.Parse(runningURL(t, f.dir))
	if err != nil {
		t.Fatal(err)
	}
	return u.Host, p.Channel
}

// runningURL is the URL the running host wrote for stdio clients.
func runningURL(t *testing.T, dir string) string {
	t.Helper()
	for deadline := time.Now().Add(timeout); ; time.Sleep(10 * time.Millisecond) {
		var run hostRunning
		b, err := os.ReadFile(filepath.Join(dir, runningFile))
		if err == nil && json.Unmarshal(b, &run) == nil && run.URL != "" {
			return run.URL
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s", runningFile)
		}
	}
}

// upgradeWith asks the host at addr for a stdio stream with secret, and
// returns the connection (nil unless upgraded) and the HTTP status.
func upgradeWith(t *testing.T, addr, secret string) (net.Conn, *bufio.Reader, int) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", "http://"+addr+"/mcp", nil)
	req.Header.Set("Authorization", "Bearer "+secret)
	req.Header.Set("Connection", "Upgrade")
	req.Header.Set("Upgrade", stdioUpgrade)
	req.Write(conn)
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusSwitchingProtocols {
		conn.Close()
		return nil, nil, resp.StatusCode
	}
	t.Cleanup(func() { conn.Close() })
	return conn, br, resp.StatusCode
}

// TestNativeHostTooLarge: a client's request too large for Chrome's native
// messaging (1 MB from the host to the extension) is answered with a
// JSON-RPC error that says so, instead of being dropped while the client
// waits; the next request reaches the page.
func TestNativeHostTooLarge(t *testing.T) {
	f := startHost(t, extensionOrigin)
	addr, probe := hostUp(t, f)
	conn, br, code := upgradeWith(t, addr, "s3cret")
	if conn == nil {
		t.Fatalf("upgrade: HTTP %d", code)
	}
	big := `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"test://` + strings.Repeat("x", 2<<20) + `"}}`
	small := `{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"test://a"}}`
	io.WriteString(conn, big+"\n"+small+"\n")
	conn.SetReadDeadline(time.Now().Add(timeout))
	line, err := br.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	var answer struct {
		ID    int `json:"id"`
		Error struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal([]byte(line), &answer) != nil || answer.ID != 1 || answer.Error.Code != codeInvalidRequest || !strings.Contains(answer.Error.Message, "too large for the browser") {
		t.Fatalf("the client got %.300s; want a -32600 error for id 1", line)
	}
	for {
		m := f.next("post")
		if m.Channel == probe {
			continue
		}
		if !strings.Contains(m.Text, `"id":2`) {
			t.Fatalf("the page got %.200s; want the request with id 2", m.Text)
		}
		break
	}
}

// TestInstallPortAndSecret: each install picks a loopback port and a
// secret of its own (no fixed port another user could take first), keeps
// both when installed again (the clients hold them), and writes them for
// the user only.
func TestInstallPortAndSecret(t *testing.T) {
	bin := buildRelay(t)
	install := func(dir string) hostConfig {
		t.Helper()
		out, err := exec.Command(bin, "--install-native-host", "--config-dir", dir, "--user-data-dir", t.TempDir()).CombinedOutput()
		if err != nil {
			t.Fatalf("relay --install-native-host: %v\n%s", err, out)
		}
		cfg, err := readHostConfig(dir)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(out), "http://"+cfg.HTTP+"/mcp/"+cfg.Secret) {
			t.Errorf("the install printed no client URL for %+v:\n%s", cfg, out)
		}
		fi, err := os.Stat(filepath.Join(dir, configFile))
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v, %v", configFile, fi.Mode(), err)
		}
		return cfg
	}
	one, two := t.TempDir(), t.TempDir()
	a, b := install(one), install(two)
	for _, c := range []hostConfig{a, b} {
		host, port, err := net.SplitHostPort(c.HTTP)
		if err != nil || host != "127.0.0.1" || port == "8765" || port == "0" || len(c.Secret) != 32 {
			t.Errorf("an install's configuration: %+v", c)
		}
	}
	if a.HTTP == b.HTTP || a.Secret == b.Secret {
		t.Errorf("two installs share a port or a secret: %+v, %+v", a, b)
	}
	if again := install(one); again != a {
		t.Errorf("installed again: %+v, was %+v", again, a)
	}
}

// TestRotateSecret: relay --rotate-secret gives the host a new secret; the
// running host refuses the old one at once and takes the new one, and the
// stdio clients find the new one in the running file.
func TestRotateSecret(t *testing.T) {
	f := startHost(t, extensionOrigin)
	addr, _ := hostUp(t, f)
	if _, _, code := upgradeWith(t, addr, "s3cret"); code != http.StatusSwitchingProtocols {
		t.Fatalf("before: HTTP %d", code)
	}
	var out syncBuffer
	if err := Run(t.Context(), []string{"--rotate-secret", "--config-dir", f.dir}, strings.NewReader(""), &out, &syncBuffer{}); err != nil {
		t.Fatal(err)
	}
	cfg, err := readHostConfig(f.dir)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Secret == "s3cret" || len(cfg.Secret) != 32 || cfg.HTTP != "127.0.0.1:0" {
		t.Fatalf("after --rotate-secret: %+v", cfg)
	}
	if !strings.Contains(out.String(), "/mcp/"+cfg.Secret) {
		t.Errorf("--rotate-secret printed:\n%s", out.String())
	}
	if _, _, code := upgradeWith(t, addr, "s3cret"); code != http.StatusUnauthorized {
		t.Errorf("the old secret: HTTP %d, want 401", code)
	}
	if _, _, code := upgradeWith(t, addr, cfg.Secret); code != http.StatusSwitchingProtocols {
		t.Errorf("the new secret: HTTP %d, want 101", code)
	}
	if u := runningURL(t, f.dir); !strings.HasSuffix(u, "/mcp/"+cfg.Secret) {
		t.Errorf("the running file says %s", u)
	}
	err = Run(t.Context(), []string{"--rotate-secret", "--config-dir", t.TempDir()}, strings.NewReader(""), &out, &syncBuffer{})
	if err == nil || !strings.Contains(err.Error(), "run `relay --install-native-host` first") {
		t.Errorf("--rotate-secret with nothing installed: %v", err)
	}
}

// TestExtensionManifest: the extension asks for no site at install: host
// permissions are optional, requested one site at a time, and plain http
// only on this machine; no content script is declared for every page.
func TestExtensionManifest(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(browsertest.RepoRoot(), "js", "extension", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"host_permissions", "content_scripts"} {
		if _, ok := m[key]; ok {
			t.Errorf("the manifest has %s: %s", key, m[key])
		}
	}
	var perms, optional []string
	json.Unmarshal(m["permissions"], &perms)
	json.Unmarshal(m["optional_host_permissions"], &optional)
	for _, p := range perms {
		switch p {
		case "nativeMessaging", "scripting", "activeTab":
		default:
			t.Errorf("the manifest asks at install for %q", p)
		}
	}
	if len(optional) == 0 {
		t.Error("no optional_host_permissions: the extension cannot ask for a site")
	}
	for _, p := range optional {
		switch p {
		case "https://*/*", "http://127.0.0.1/*", "http://localhost/*", "http://[::1]/*":
		default:
			t.Errorf("optional_host_permissions has %q: only https sites, and plain http on loopback", p)
		}
	}
}

// TestExtensionPermissions: the extension holds no permission for a site
// until the visitor allows it in the popup; the popup asks the browser for
// that one site in the click (a script's click, outside a user gesture, is
// refused and allows nothing); the background allows only sites the
// browser granted, never plain http elsewhere; Remove gives the permission
// back.
func TestExtensionPermissions(t *testing.T) {
	b := newExtBrowser(t)
	p := b.page("/relay.html?test=" + url.QueryEscape(t.Name()))
	pop := b.popup()
	origin := showPopupFor(pop, p)
	granted := func() bool {
		t.Helper()
		var ok bool
		pop.Eval(fmt.Sprintf(`chrome.permissions.contains({origins: [%q]})`, origin+"/*"), &ok)
		return ok
	}
	var scripts int
	pop.Eval(`chrome.scripting.getRegisteredContentScripts().then((s) => s.length)`, &scripts)
	if granted() || scripts != 0 {
		t.Fatalf("before the visitor allowed anything: permission %v, %d content scripts", granted(), scripts)
	}

	pop.Eval(`document.getElementById("allow").click()`, nil) // a script's click: no user gesture
	waitPopup(pop, `document.getElementById("error").textContent.includes("user gesture")`)
	if granted() {
		t.Error("a click outside a user gesture got the site's permission")
	}

	// The background allows no site the browser did not grant, and no plain
	// http site on another machine, whoever asks.
	for site, want := range map[string]string{
		"https://shop.example": "has not granted the extension https://shop.example",
		"http://shop.example":  "it is plain http",
	} {
		var got string
		pop.Eval(fmt.Sprintf(`chrome.runtime.sendMessage({type: "allow", origin: %q}).then((s) => s.error)`, site), &got)
		if !strings.Contains(got, want) {
			t.Errorf("allowing %s: %q, want %q", site, got, want)
		}
	}
	var sites []string
	pop.Eval(`chrome.runtime.sendMessage({type: "state"}).then((s) => s.sites)`, &sites)
	if len(sites) != 0 {
		t.Fatalf("allowed sites: %v", sites)
	}

	clickAsVisitor(pop, `document.getElementById("allow")`)
	waitPopup(pop, siteListed(origin)+" && "+listed(p.url))
	var all []string
	pop.Eval(`chrome.permissions.getAll().then((p) => p.origins)`, &all)
	if !granted() || len(all) != 1 || all[0] != origin+"/*" {
		t.Errorf("after the visitor's click, the extension holds %v; want %s/* alone", all, origin)
	}

	pop.Eval(fmt.Sprintf(`[...document.querySelectorAll("#sites li")].find((li) => li.dataset.origin === %q).querySelector("button.disallow").click()`, origin), nil)
	waitPopup(pop, `!(`+siteListed(origin)+`)`)
	pop.Eval(fmt.Sprintf(`(async () => { while (await chrome.permissions.contains({origins: [%q]})) await new Promise((r) => setTimeout(r, 20)); return true; })()`, origin+"/*"), nil)
}
