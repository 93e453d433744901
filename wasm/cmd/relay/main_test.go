package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// The command's flags; the relay itself is tested in wasm/relay.
func TestRun(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // the error, or what --help prints
	}{
		{[]string{"--help"}, "usage: relay (--url URL | --attach ADDR [--tab ID|URL]) [--stdio | --http 127.0.0.1:PORT] [flags]"},
		{nil, "modelcontext: give exactly one of --url and --attach"},
		{[]string{"--url", "http://127.0.0.1:1/", "--attach", "127.0.0.1:9222"}, "modelcontext: give exactly one of --url and --attach"},
		{[]string{"--url", "http://127.0.0.1:1/", "--tab", "x"}, "modelcontext: --tab picks a tab of the browser given with --attach"},
		{[]string{"--url", "http://127.0.0.1:1/", "--stdio", "--http", "127.0.0.1:0"}, "modelcontext: give --stdio or --http, not both"},
		{[]string{"--url", "http://127.0.0.1:1/", "--http", "0.0.0.0:8765"}, "modelcontext: --http 0.0.0.0:8765: the relay listens only on a loopback address such as 127.0.0.1:8765"},
		{[]string{"--url", "http://127.0.0.1:1/", "--http", "192.168.1.2:8765"}, "modelcontext: --http 192.168.1.2:8765: the relay listens only on a loopback address"},
		{[]string{"--url", "http://127.0.0.1:1/", "--max-sessions", "0"}, "modelcontext: --max-sessions must be at least 1"},
		{[]string{"--nope"}, "modelcontext: flag provided but not defined: -nope"},
		{[]string{"--url", "http://127.0.0.1:1/", "extra"}, `modelcontext: unexpected argument "extra"`},
		{[]string{"--attach", "127.0.0.1:1"}, "modelcontext: --attach http://127.0.0.1:1: no browser answered"},
		{[]string{"chrome-extension://abcdefghijklmnopabcdefghijklmnop/"}, "modelcontext: the native host answers only the modelcontext extension (chrome-extension://afcmpgmjealfngaffjaalnghejofppki/)"},
		{[]string{"--install-native-host", "--http", "0.0.0.0:8765"}, "modelcontext: --http 0.0.0.0:8765: the native host listens only on a loopback address"},
		{[]string{"--install-native-host", "--config-dir", "/nonexistent/modelcontext"}, "modelcontext: --install-native-host needs a relay that stays where it is, not one from go run"},
		{[]string{"--rotate-secret", "--config-dir", "/nonexistent/modelcontext"}, "modelcontext: open /nonexistent/modelcontext/relay.json: no such file or directory: run `relay --install-native-host` first"},
		{[]string{"--url", "http://shop.example/"}, "modelcontext: http://shop.example/ is plain http on another machine"},
	} {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), tc.args, strings.NewReader(""), &stdout, &stderr)
		got := stdout.String()
		if err != nil {
			got = err.Error()
		}
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("relay %s:\n got %s\nwant %s...", strings.Join(tc.args, " "), got, tc.want)
		}
	}
}
