package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// Metrics are what one Lighthouse report says about one load.
type Metrics struct {
	TBT          float64 `json:"tbt_ms"`          // total-blocking-time
	LCP          float64 `json:"lcp_ms"`          // largest-contentful-paint
	TTI          float64 `json:"tti_ms"`          // interactive
	FCP          float64 `json:"fcp_ms"`          // first-contentful-paint
	MainThread   float64 `json:"mainthread_ms"`   // mainthread-work-breakdown, total
	Script       float64 `json:"script_ms"`       // its scriptEvaluation and scriptParseCompile groups
	Bytes        float64 `json:"bytes"`           // total-byte-weight
	Requests     int     `json:"requests"`        // network-requests, all
	WasmRequests int     `json:"wasm_requests"`   // network-requests whose URL path ends in .wasm
	WasmBytes    float64 `json:"wasm_bytes"`      // their transfer size
	BenchIndex   float64 `json:"benchmark_index"` // environment.benchmarkIndex: the machine's speed as Lighthouse saw it
}

// metricAudits maps the audits whose numericValue a Metrics field takes.
var metricAudits = []struct {
	id  string
	get func(*Metrics) *float64
}{
	{"total-blocking-time", func(m *Metrics) *float64 { return &m.TBT }},
	{"largest-contentful-paint", func(m *Metrics) *float64 { return &m.LCP }},
	{"interactive", func(m *Metrics) *float64 { return &m.TTI }},
	{"first-contentful-paint", func(m *Metrics) *float64 { return &m.FCP }},
	{"mainthread-work-breakdown", func(m *Metrics) *float64 { return &m.MainThread }},
	{"total-byte-weight", func(m *Metrics) *float64 { return &m.Bytes }},
}

// lhr is the part of a Lighthouse report (LHR) read here.
type lhr struct {
	LighthouseVersion string `json:"lighthouseVersion"`
	FinalDisplayedURL string `json:"finalDisplayedUrl"`
	RuntimeError      *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"runtimeError"`
	RunWarnings []string `json:"runWarnings"`
	Environment struct {
		BenchmarkIndex float64 `json:"benchmarkIndex"`
	} `json:"environment"`
	Audits map[string]struct {
		NumericValue *float64        `json:"numericValue"`
		ErrorMessage string          `json:"errorMessage"`
		Details      json.RawMessage `json:"details"`
	} `json:"audits"`
}

type mainThreadDetails struct {
	Items []struct {
		Group    string  `json:"group"`
		Duration float64 `json:"duration"`
	} `json:"items"`
}

type networkDetails struct {
	Items []struct {
		URL          string  `json:"url"`
		TransferSize float64 `json:"transferSize"`
		StatusCode   int     `json:"statusCode"`
	} `json:"items"`
}

// Report is a parsed report: the metrics and what else the table notes.
type Report struct {
	Version  string   `json:"lighthouse_version"`
	URL      string   `json:"url"`
	Warnings []string `json:"warnings,omitempty"`
	Metrics  Metrics  `json:"metrics"`
}

// parseLHR reads a Lighthouse report's JSON. It fails if Lighthouse
// reported a runtime error or an audit it takes has no numeric value.
func parseLHR(data []byte) (Report, error) {
	var r lhr
	if err := json.Unmarshal(data, &r); err != nil {
		return Report{}, fmt.Errorf("the Lighthouse report: %w", err)
	}
	if r.LighthouseVersion == "" || r.Audits == nil {
		return Report{}, errors.New("the Lighthouse report has no lighthouseVersion or no audits")
	}
	if e := r.RuntimeError; e != nil && e.Code != "" && e.Code != "NO_ERROR" {
		return Report{}, fmt.Errorf("Lighthouse: %s: %s", e.Code, e.Message)
	}
	rep := Report{Version: r.LighthouseVersion, URL: r.FinalDisplayedURL, Warnings: r.RunWarnings}
	m := &rep.Metrics
	m.BenchIndex = r.Environment.BenchmarkIndex
	for _, a := range metricAudits {
		au, ok := r.Audits[a.id]
		if !ok || au.NumericValue == nil {
			msg := "missing"
			if ok && au.ErrorMessage != "" {
				msg = au.ErrorMessage
			}
			return Report{}, fmt.Errorf("the Lighthouse report's audit %s: %s", a.id, msg)
		}
		*a.get(m) = *au.NumericValue
	}
	var mt mainThreadDetails
	if b := r.Audits["mainthread-work-breakdown"].Details; len(b) > 0 && json.Unmarshal(b, &mt) != nil {
		return Report{}, errors.New("the Lighthouse report's mainthread-work-breakdown has no table of groups")
	}
	for _, it := range mt.Items {
		if it.Group == "scriptEvaluation" || it.Group == "scriptParseCompile" {
			m.Script += it.Duration
		}
	}
	nr, ok := r.Audits["network-requests"]
	if !ok {
		return Report{}, errors.New("the Lighthouse report has no network-requests audit")
	}
	var nd networkDetails
	if err := json.Unmarshal(nr.Details, &nd); err != nil || nd.Items == nil {
		return Report{}, fmt.Errorf("the Lighthouse report's network-requests audit has no table of requests (%v)", err)
	}
	for _, it := range nd.Items {
		m.Requests++
		if isWasm(it.URL) {
			m.WasmRequests++
			m.WasmBytes += it.TransferSize
		}
	}
	return rep, nil
}

// isWasm reports whether a URL's path ends in .wasm (its query and
// fragment aside).
func isWasm(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return strings.HasSuffix(raw, ".wasm")
	}
	return strings.HasSuffix(u.Path, ".wasm")
}
