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
