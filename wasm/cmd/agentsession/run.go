package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/internal/browsertest"
	"github.com/modelcontext-go/modelcontext/wasm/internal/gendoc"
)

type options struct {
	every  int
	rounds int
	only   string
	out    string
	texts  string
	goCmd  string
	// md is where the Markdown table goes ("" for nowhere); mdFrom a run's
	// JSON to render instead of running.
	md, mdFrom string
}

// parseFlags reads the command line; a run with -only or -every writes no
// Markdown unless -md names a file, so that a partial run leaves the docs'
// table alone.
func parseFlags(args []string, root string) (options, error) {
	fl := flag.NewFlagSet("agentsession", flag.ContinueOnError)
	var o options
	fl.IntVar(&o.every, "every", 1, "the agents take a turn after every `K` steps")
	fl.IntVar(&o.rounds, "rounds", 31, "rounds of the timed rows (0 skips them)")
	fl.StringVar(&o.only, "only", "", `"session" or "timed": that part alone`)
	fl.StringVar(&o.out, "out", filepath.Join(root, "testdata", "out", "agentsession.json"), "write the results as JSON to this `file`")
	fl.StringVar(&o.texts, "texts", filepath.Join(root, "testdata", "out", "agentsession-texts.json"), "write the texts each agent received to this `file`")
	fl.StringVar(&o.md, "md", "", "write the results as a Markdown table to this `file` (default testdata/bench/AGENT.md, the table the docs link to, unless -only or -every makes the run partial)")
	fl.StringVar(&o.mdFrom, "md-from", "", "instead of the session, render the results in this JSON `file` (e.g. testdata/out/agentsession.json) as Markdown to -md")
	if err := fl.Parse(args); err != nil {
		return o, err
	}
	partial, mdSet := false, false
	fl.Visit(func(f *flag.Flag) {
		partial = partial || f.Name == "only" || f.Name == "every"
		mdSet = mdSet || f.Name == "md"
	})
	if !mdSet && (o.mdFrom != "" || !partial) {
		o.md = filepath.Join(root, "testdata", "bench", "AGENT.md")
	}
	if fl.NArg() > 0 || o.every < 1 || o.rounds < 0 || (o.only != "" && o.only != "session" && o.only != "timed") {
		return o, errors.New("usage: agentsession [-every K] [-rounds N] [-only session|timed] [-out FILE] [-texts FILE] [-md FILE | -md-from FILE]")
	}
	o.goCmd = os.Getenv("GO")
	if o.goCmd == "" {
		o.goCmd = "go"
	}
	return o, nil
}

func run(args []string, stdout io.Writer) error {
	start := time.Now()
	root := browsertest.RepoRoot()
	o, err := parseFlags(args, root)
	if err != nil {
		return err
	}
	logf := func(format string, a ...any) { fmt.Fprintf(os.Stderr, "agentsession: "+format+"\n", a...) }
	if o.mdFrom != "" {
		if err := renderFrom(o.mdFrom, o.md); err != nil {
			return err
		}
		logf("wrote %s from %s", o.md, o.mdFrom)
		return nil
	}
	for _, f := range []string{"dist/modelcontext.js", "dist/modelcontext.wasm", "dist/delivery.wasm", "testdata/out/mcpclient.js"} {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			return fmt.Errorf("%s not found: run make build demo-app mcpclient (make bench-agent does)", f)
		}
	}
	session := o.only != "timed"
	if session {
		if _, err := os.Stat(filepath.Join(root, "testdata", "agentsession", "node_modules", "gpt-tokenizer")); err != nil {
			return errors.New("testdata/agentsession/node_modules/gpt-tokenizer not found: make bench-agent installs it (npm ci in testdata/agentsession)")
		}
	}

	res := &Results{Date: time.Now().UTC().Format(time.RFC3339), CPUs: runtime.NumCPU(), Every: o.every, Rounds: o.rounds}
	res.Load[0] = gendoc.LoadAverage()
	res.Commit = gendoc.Commit(root)
	logf("starting Chromium")
	br, err := browsertest.NewBrowser()
	if err != nil {
		return err
	}
	defer br.Close()
	if session {
		tmp, err := os.MkdirTemp("", "modelcontext-agentsession-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		url, stop, err := startDemo(o.goCmd, root, tmp, logf)
		if err != nil {
			return err
		}
		err = runSession(br, url, root, o, res, logf)
		stop()
		if err != nil {
			return err
		}
	}
	if o.only != "session" && o.rounds > 0 {
		if err := runTimed(br, root, o, res, logf); err != nil {
			return err
		}
	}
	res.Targets = checkTargets(res)
	res.Load[1] = gendoc.LoadAverage()
	res.Seconds = round(time.Since(start).Seconds(), 1)
	printTable(stdout, res)
	if err := os.MkdirAll(filepath.Dir(o.out), 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(o.out, append(b, '\n'), 0o644); err != nil {
		return err
	}
	logf("wrote %s", o.out)
	if o.md != "" {
		if err := markdown(res).WriteFile(o.md); err != nil {
			return err
		}
		logf("wrote %s", o.md)
	}
	return nil
}

// startDemo builds the serve command of make demo and starts it on a free
// port of 127.0.0.1 with the demo, dist/ and the MCP client bundle; stop
// ends it.
func startDemo(goCmd, root, tmp string, logf func(string, ...any)) (url string, stop func(), err error) {
	bin := filepath.Join(tmp, "serve")
	logf("building wasm/cmd/serve")
	build := exec.Command(goCmd, "build", "-o", bin, "./wasm/cmd/serve")
	build.Dir = root
	if b, err := build.CombinedOutput(); err != nil {
		return "", nil, fmt.Errorf("building wasm/cmd/serve: %v\n%s", err, b)
	}
	cmd := exec.Command(bin, "-addr", "127.0.0.1:0", "-demo", "demo", "-dist", "dist", "-vendor", "testdata/out")
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop = func() {
		cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	go io.Copy(io.Discard, out)
	if err != nil || !strings.HasPrefix(line, "demo: ") {
		stop()
		return "", nil, fmt.Errorf("serve printed %q, not its address (%v)", line, err)
	}
	return strings.TrimSpace(strings.TrimPrefix(line, "demo: ")), stop, nil
}
