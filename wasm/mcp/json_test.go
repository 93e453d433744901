package mcp

import (
	"encoding/json"
	"testing"
)

func TestWriterEscapes(t *testing.T) {
	for _, in := range []string{"a\"b\\c\nd\x01é\t\u2028", ""} {
		w := &writer{}
		var back string
		if err := json.Unmarshal([]byte(w.str(in).String()), &back); err != nil || back != in {
			t.Errorf("round trip of %q: %q, %v", in, back, err)
		}
	}
	if got := (&writer{}).int(-1234).String(); got != "-1234" {
		t.Errorf("int: %s", got)
	}
}

func TestJSONNumber(t *testing.T) {
	for s, want := range map[string]bool{
		"0": true, "-1": true, "12.5": true, "1e9": true, "1.5E-3": true, "-0.0e+1": true,
		"": false, "+": false, "+1": false, "01": false, "1.": false, ".5": false, "1e": false, "--1": false, "1e+": false, "0x1": false,
	} {
		if got := jsonNumber(s); got != want {
			t.Errorf("jsonNumber(%q) = %v, want %v", s, got, want)
		}
	}
}
