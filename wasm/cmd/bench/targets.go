package main

import "fmt"

func checkTargets(res *Results) []Check {
	var out []Check
	for _, r := range append(res.Workloads[:len(res.Workloads):len(res.Workloads)], res.MCP...) {
		if r.Target == 0 {
			continue
		}
		of := "the reference"
		if r.Vs == "mcpb" {
			of = "MCP-B's own server through the same client"
		}
		detail := fmt.Sprintf("%.2f× paired CPU (95%% CI %.2f–%.2f, quartiles %.2f–%.2f, %d rounds; %.2f µs vs %.2f µs); wall-clock %.2f× paired",
			r.Paired.Median, r.CI[0], r.CI[1], r.Paired.Q1, r.Paired.Q3, r.Rounds, r.OursCPU.Median, r.RefCPU.Median, r.PairedRatio)
		if disagree(r) {
			detail += "; " + disagreeNote
		}
		if r.Key == "mcp-read" {
			detail += floorEvidence(res.MCP, r.Target)
		}
		out = append(out, Check{
			Name:   fmt.Sprintf("%s: within %.2g× of %s", r.Label, r.Target, of),
			OK:     r.Paired.Median <= r.Target,
			Detail: detail,
		})
	}
	if r := res.Ready; r != nil {
		out = append(out, Check{
			Name: fmt.Sprintf("ready: within %.3g× of the bare Go program (first visit, fresh tab)", maxReadyRatio),
			OK:   r.Paired.Median <= maxReadyRatio,
			Detail: fmt.Sprintf("%.2f× paired (95%% CI %.2f–%.2f, quartiles %.2f–%.2f, %d rounds; %.1f ms vs %.1f ms)",
				r.Paired.Median, medianCI(r.Paired.Samples)[0], medianCI(r.Paired.Samples)[1], r.Paired.Q1, r.Paired.Q3,
				len(r.Paired.Samples), r.Ours.Median, r.Bare.Median),
		})
	}
	for _, sz := range res.Size {
		if sz.Impl != "ours" || len(sz.FileBrotli) == 0 {
			continue
		}
		out = append(out, Check{
			Name:   fmt.Sprintf("the .wasm no larger than %d KB brotli", maxWasmBrotli/1000),
			OK:     sz.FileBrotli[0] <= maxWasmBrotli,
			Detail: fmt.Sprintf("%.1f KB (%d bytes)", float64(sz.FileBrotli[0])/1000, sz.FileBrotli[0]),
		})
	}
	return out
}

// floorEvidence is what the MCP read target's line says of its floor: what
// the least server measured against MCP-B's in the same run (no server can
// do better through the same client and transport, so a floor above the
// target proves it out of reach), and how far the module is from it.
func floorEvidence(mcp []Row, target float64) string {
	var s string
	for _, r := range mcp {
		switch r.Key {
		case "mcp-read-floor":
			verdict := "so no server can reach the target here"
			if r.Paired.Median <= target {
				verdict = "so the target is within reach"
			}
			s += fmt.Sprintf("; floor: the least server measured %.2f× of MCP-B's (quartiles %.2f–%.2f), %s",
				r.Paired.Median, r.Paired.Q1, r.Paired.Q3, verdict)
		case "mcp-read-least":
			s += fmt.Sprintf("; the module is %.2f× of the least server (quartiles %.2f–%.2f, %.2f µs above it)",
				r.Paired.Median, r.Paired.Q1, r.Paired.Q3, r.OursCPU.Median-r.RefCPU.Median)
		}
	}
	return s
}
