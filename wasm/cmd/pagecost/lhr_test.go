package main

import (
	"os"
	"strings"
	"testing"
)

func TestParseLHR(t *testing.T) {
	data, err := os.ReadFile("testdata/lhr.json")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := parseLHR(data)
	if err != nil {
		t.Fatal(err)
	}
	want := Metrics{TBT: 25, LCP: 3671.96625, TTI: 3671.9662500000004, FCP: 1116.9775, MainThread: 1060.284, Script: 700.1 + 12.25, Bytes: 523917,
		Requests: 7, WasmRequests: 2, WasmBytes: 502170 + 446, BenchIndex: 864}
	if rep.Metrics != want {
		t.Errorf("metrics:\n got %+v\nwant %+v", rep.Metrics, want)
	}
	if rep.Version != "12.2.3" || rep.URL != "http://127.0.0.1:43269/lazy.html" || len(rep.Warnings) != 1 {
		t.Errorf("report: %+v", rep)
	}
}

func TestParseLHRFails(t *testing.T) {
	data, err := os.ReadFile("testdata/lhr.json")
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	for _, c := range []struct{ name, doc, want string }{
		{"not JSON", "<html>", "the Lighthouse report"},
		{"no version", `{"audits": {}}`, "no lighthouseVersion"},
		{"runtime error", strings.Replace(s, `"runWarnings"`,
			`"runtimeError": {"code": "NO_FCP", "message": "The page did not paint any content."}, "runWarnings"`, 1), "NO_FCP: The page did not paint"},
		{"missing audit", strings.Replace(s, `"total-blocking-time":`, `"total-blocking-time-x":`, 1), "total-blocking-time: missing"},
		{"audit error", strings.Replace(s, `"numericValue": 25, `, `"errorMessage": "no trace", `, 1), "total-blocking-time: no trace"},
		{"no requests", strings.Replace(s, `"network-requests":`, `"network-requests-x":`, 1), "no network-requests audit"},
		{"no groups", strings.Replace(s, `"duration": 700.1}`, `"duration": "long"}`, 1), "mainthread-work-breakdown has no table"},
	} {
		_, err := parseLHR([]byte(c.doc))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to contain %q", c.name, err, c.want)
		}
	}
	// A runtime error of NO_ERROR is no error.
	if _, err := parseLHR([]byte(strings.Replace(s, `"runWarnings"`, `"runtimeError": {"code": "NO_ERROR"}, "runWarnings"`, 1))); err != nil {
		t.Errorf("NO_ERROR: %v", err)
	}
}

func TestIsWasm(t *testing.T) {
	for u, want := range map[string]bool{
		"http://h/static/modelcontext.wasm":         true,
		"http://h/static/modelcontext.wasm?v=1#a":   true,
		"http://h/modelcontext.3f9a2b1c.wasm":       true,
		"http://h/static/modelcontext.js":           false,
		"http://h/wasm":                             false,
		"http://h/page.html?file=modelcontext.wasm": false,
		"%zz.wasm": true, // not a URL: the raw string decides
	} {
		if got := isWasm(u); got != want {
			t.Errorf("isWasm(%q) = %v, want %v", u, got, want)
		}
	}
}
