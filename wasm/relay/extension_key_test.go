package relay

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
)

// TestExtensionKey: the key the host trusts is the extension's, and the id
// derives from it as Chrome derives it.
func TestExtensionKey(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(browsertest.RepoRoot(), "js", "extension", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Key string `json:"key"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m.Key != extensionKey {
		t.Errorf("js/extension/manifest.json's key is not extensionKey in extension.go")
	}
	// The id Chrome showed for the unpacked extension (chrome://extensions).
	if got := extensionID(extensionKey); got != "afcmpgmjealfngaffjaalnghejofppki" {
		t.Errorf("extensionID = %s", got)
	}
}

// TestNativeFraming: 4 bytes of length in native byte order, then JSON.
func TestNativeFraming(t *testing.T) {
	var buf syncBuffer
	if err := writeNative(&buf, []byte(`{"type":"hello"}`)); err != nil {
		t.Fatal(err)
	}
	raw := buf.String()
	if len(raw) != 4+16 || raw[0] != 16 || raw[1] != 0 {
		t.Fatalf("frame % x", raw)
	}
	got, err := readNative(&buf.b)
	if err != nil || string(got) != `{"type":"hello"}` {
		t.Fatalf("readNative = %q, %v", got, err)
	}
}

func TestMode(t *testing.T) {
	for args, want := range map[string]string{
		"chrome-extension://x/":            "native-host",
		"--native-host --config-dir d o":   "native-host",
		"--install-native-host --http a":   "install",
		"--extension":                      "extension",
		"--rotate-secret --config-dir d":   "rotate",
		"--url http://127.0.0.1/ --http a": "",
	} {
		if got := mode(strings.Fields(args)); got != want {
			t.Errorf("mode(%s) = %q, want %q", args, got, want)
		}
	}
}
