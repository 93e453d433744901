package main

import (
	"fmt"
	"io"
	"strings"
)

func printTable(w io.Writer, res *Results) {
	fmt.Fprintf(w, "modelcontext bench: %s, %s, %d CPUs, load average %.1f → %.1f, %d+ interleaved rounds, median per operation\n\n",
		res.GoVersion, browserName(res.Browser), res.CPUs, res.Load[0], res.Load[1], res.Rounds)
	if res.Against != "" {
		fmt.Fprintf(w, "A/B: the ref columns measure %s, not the reference\n\n", res.Against)
	}
	row := func(r Row) {
		target := ""
		if r.Target > 0 && res.Against == "" {
			mark := "MISS"
			if r.Paired.Median <= r.Target {
				mark = "ok"
			}
			target = fmt.Sprintf("≤%.2f× %s", r.Target, mark)
		}
		flag := " "
		if disagree(r) {
			flag = "!"
		}
		fmt.Fprintf(w, "%-42s %6d %4d %10.2f %10.2f %6.2f× %6.2f–%-6.2f %6.2f×%s %s\n", r.Label, r.Ops, r.Rounds,
			r.OursCPU.Median, r.RefCPU.Median, r.Paired.Median, r.Paired.Q1, r.Paired.Q3, r.PairedRatio, flag, target)
	}
	header := func(other string) {
		fmt.Fprintf(w, "%-42s %6s %4s %10s %10s %7s %13s %7s  %s\n", "workload", "ops", "rnds", "ours µs", other, "ratio", "quartiles", "wall", "target")
	}
	if len(res.Workloads) > 0 {
		fmt.Fprintln(w, "in-page operations, CPU time of the page's main thread per operation")
		header("ref µs")
		for _, r := range res.Workloads {
			row(r)
		}
		if c := res.CrossingCPU; c != nil {
			fmt.Fprintf(w, "%-42s %6d %4s %10.2f   (bare Go, for scale)\n", "crossing: JS → Go js.FuncOf no-op", c.Ops, "", c.Median)
		}
	}
	if len(res.MCP) > 0 {
		if len(res.Workloads) > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w, "MCP resources/read, the stock SDK Client on @mcp-b/transports' tab transport (CPU time per round trip)")
		vs := ""
		for _, r := range res.MCP {
			if r.Vs != vs {
				vs = r.Vs
				header(mcpServers[vs][0])
			}
			row(r)
		}
		for _, vs := range []string{"mcpb", "against", "floor"} {
			for _, r := range res.MCP {
				if r.Vs == vs {
					fmt.Fprintf(w, "  %s\n", mcpServers[vs][1])
					break
				}
			}
		}
		fmt.Fprintln(w, "  same client and transport, a page each")
	}
	if len(res.Workloads)+len(res.MCP) > 0 {
		fmt.Fprintln(w, "\n  ratio = median over the rounds of ours / ref in the same round (CPU time), with its quartiles;")
		fmt.Fprintln(w, "  wall = the same in wall-clock time; µs = medians; rnds = rounds (more where the verdict was uncertain)")
		fmt.Fprintf(w, "  ! = the CPU time and the clock disagree by more than %.3g×: run again before trusting that row\n", maxDisagreement)
	}
	printFloor(w, res.Floor)
	printStartup(w, res.Startup)
	if r := res.Ready; r != nil {
		fmt.Fprintf(w, "\nstart-up, navigation start → ready, first visit in a fresh tab (median of %d rounds, ms)\n", len(r.Ours.Samples))
		fmt.Fprintf(w, "  ours %.1f   ref %.1f   bare Go %.1f   ours/bare %.2f× paired (quartiles %.2f–%.2f)\n",
			r.Ours.Median, r.Ref.Median, r.Bare.Median, r.Paired.Median, r.Paired.Q1, r.Paired.Q3)
		fmt.Fprintf(w, "  main-thread CPU until ready: ours %.1f   bare Go %.1f   ours/bare %.2f× paired (quartiles %.2f–%.2f)\n",
			r.OursCPU.Median, r.BareCPU.Median, r.PairedCPU.Median, r.PairedCPU.Q1, r.PairedCPU.Q3)
		fmt.Fprintf(w, "  from the .wasm request to ready: ours %.1f   bare Go %.1f   ours/bare %.2f×\n",
			r.OursFromWasm.Median, r.BareFromWasm.Median, r.RatioFromWasm)
		fmt.Fprintf(w, "  script tags ran (once downloaded): ours %.1f   ref %.1f   bare Go %.1f\n",
			r.ScriptsRan["ours"].Median, r.ScriptsRan["ref"].Median, r.ScriptsRan["bare"].Median)
	}
	if len(res.Size) > 0 {
		fmt.Fprintf(w, "\ndownload (bytes)\n  %-10s %-44s %10s %10s %10s\n", "", "files", "raw", "gzip", "brotli")
		for _, s := range res.Size {
			fmt.Fprintf(w, "  %-10s %-44s %10d %10d %10d\n", s.Impl, strings.Join(s.Files, " + "), s.Raw, s.Gzip, s.Brotli)
		}
	}
	if len(res.Targets) > 0 {
		fmt.Fprintln(w, "\ntargets")
		for _, c := range res.Targets {
			mark := "MISS"
			if c.OK {
				mark = "ok  "
			}
			fmt.Fprintf(w, "  %s %s: %s\n", mark, c.Name, c.Detail)
		}
	}
}

// browserName shortens a user agent to "Chrome/NNN…".
func browserName(ua string) string {
	for _, f := range strings.Fields(ua) {
		if strings.HasPrefix(f, "HeadlessChrome/") || strings.HasPrefix(f, "Chrome/") {
			return f
		}
	}
	if ua == "" {
		return "Chromium"
	}
	return ua
}
