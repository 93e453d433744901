package relay

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// chromiumPath returns the browser to launch: flag if set, else $CHROMIUM,
// else /usr/bin/chromium, else chromium (or a close relative) on PATH.
func chromiumPath(flag string) (string, error) {
	if flag != "" {
		return flag, nil
	}
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p, nil
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium", nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "microsoft-edge"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("no Chromium found (looked at --chromium, $CHROMIUM, /usr/bin/chromium and chromium or google-chrome on PATH); install one or pass --chromium PATH")
}

// chromium is a headless browser the relay launched, with a profile of its
// own that close removes. The relay speaks DevTools with it on a pipe
// (--remote-debugging-pipe): it opens no debugging port, which any local
// process could connect to and drive the browser.
type chromium struct {
	cmd     *exec.Cmd
	dir     string
	pipe    *pipeTransport
	exited  chan struct{}
	stderr  *tail
	waitErr error
}

// Profile directories the relay creates start with this, in os.TempDir().
const profilePrefix = "modelcontext-relay-"

// launchChromium starts exe headless on about:blank, with the DevTools
// protocol on a pipe (c.pipe).
func launchChromium(exe string) (*chromium, error) {
	dir, err := os.MkdirTemp("", profilePrefix)
	if err != nil {
		return nil, err
	}
	args := []string{
		"--headless", "--no-first-run", "--no-default-browser-check",
		"--disable-background-networking", "--disable-background-timer-throttling",
		"--disable-backgrounding-occluded-windows", "--disable-renderer-backgrounding",
		"--disable-breakpad", "--disable-component-update", "--disable-default-apps",
		"--disable-dev-shm-usage", "--disable-extensions", "--disable-sync",
		"--metrics-recording-only", "--password-store=basic", "--use-mock-keychain",
		"--remote-debugging-pipe", "--user-data-dir=" + dir,
	}
	if os.Getuid() == 0 {
		args = append(args, "--no-sandbox") // Chromium refuses to run as root with its sandbox
	}
	args = append(args, "about:blank")
	// The browser reads commands from its fd 3 and writes to its fd 4.
	cmdR, cmdW, err := os.Pipe()
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		cmdR.Close()
		cmdW.Close()
		os.RemoveAll(dir)
		return nil, err
	}
	cmd := exec.Command(exe, args...)
	cmd.ExtraFiles = []*os.File{cmdR, outW}
	setProcessGroup(cmd)
	pr, pw := io.Pipe()
	cmd.Stdout = io.Discard
	cmd.Stderr = pw
	err = cmd.Start()
	cmdR.Close() // the browser's ends
	outW.Close()
	if err != nil {
		cmdW.Close()
		outR.Close()
		os.RemoveAll(dir)
		return nil, fmt.Errorf("starting %s: %w", exe, err)
	}
	c := &chromium{cmd: cmd, dir: dir, pipe: newPipeTransport(cmdW, outR), exited: make(chan struct{}), stderr: &tail{max: 4096}}
	go func() {
		c.waitErr = cmd.Wait()
		pw.Close()
		close(c.exited)
	}()
	go func() {
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			c.stderr.Write([]byte(sc.Text() + "\n"))
		}
		io.Copy(io.Discard, pr)
	}()
	return c, nil
}

// close waits up to grace for the browser to exit (after Browser.close, say),
// kills its process group if it has not, and removes its profile.
func (c *chromium) close(grace time.Duration) error {
	timer := time.NewTimer(grace)
	defer timer.Stop()
	select {
	case <-c.exited:
	case <-timer.C:
		c.kill()
	}
	killGroup(c.cmd) // helpers (zygote, GPU, renderers) that outlived the browser
	return c.removeProfile()
}

func (c *chromium) kill() {
	killGroup(c.cmd)
	<-c.exited
	c.pipe.Close()
	c.removeProfile()
}

// removeProfile removes the profile directory; Chromium's helpers may still
// be writing to it for a moment after the browser exits.
func (c *chromium) removeProfile() error {
	var err error
	for i := 0; i < 50; i++ {
		if err = os.RemoveAll(c.dir); err == nil {
			if _, serr := os.Stat(c.dir); errors.Is(serr, os.ErrNotExist) {
				return nil
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	return fmt.Errorf("removing the browser profile %s: %v", c.dir, err)
}

// started returns err, or, when the browser exited at start, why: what it
// printed.
func (c *chromium) started(exe string, err error) error {
	select {
	case <-c.exited:
		return fmt.Errorf("%s exited at start (%v): %s", exe, c.waitErr, strings.TrimSpace(c.stderr.String()))
	case <-time.After(time.Second):
		return err
	}
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = t.b[len(t.b)-t.max:]
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

// browserEndpoint turns --attach's value into the browser's DevTools
// WebSocket URL: a ws:// URL is used as it is; http://host:port (or
// host:port) is asked for it at /json/version.
func browserEndpoint(ctx context.Context, attach string) (string, error) {
	if strings.HasPrefix(attach, "ws://") || strings.HasPrefix(attach, "wss://") {
		return attach, nil
	}
	if !strings.Contains(attach, "://") {
		attach = "http://" + attach
	}
	u, err := url.Parse(attach)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("--attach %q: want the browser's debugging address, like http://127.0.0.1:9222", attach)
	}
	u.Path, u.RawQuery = "/json/version", ""
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return "", err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", fmt.Errorf("--attach %s: no browser answered (%v); start it with --remote-debugging-port=9222", attach, err)
	}
	defer resp.Body.Close()
	var v struct {
		WebSocketDebuggerURL string `json:"webSocketDebuggerUrl"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&v); err != nil || v.WebSocketDebuggerURL == "" {
		return "", fmt.Errorf("--attach %s: %s is not a DevTools endpoint (HTTP %d)", attach, u, resp.StatusCode)
	}
	return v.WebSocketDebuggerURL, nil
}

// profileDirs lists the profile directories of relays that are still
// around (for tests of a clean shutdown).
func profileDirs() []string {
	m, _ := filepath.Glob(filepath.Join(os.TempDir(), profilePrefix+"*"))
	return m
}
