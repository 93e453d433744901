package modelcontexttest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontext-go/modelcontext/wasm/abi"
	"github.com/modelcontext-go/modelcontext/wasm/modelcontext"
	"github.com/modelcontext-go/modelcontext/wasm/modelcontext/internal/page"
	"github.com/modelcontext-go/modelcontext/wasm/registry"
)

// loaderDir is the loader's source, from this package's folder.
const loaderDir = "../../../js/loader"

// TestLoaderMessages holds validate.go to the loader: each registration
// below, as package modelcontext hands it to the page, is validated by the
// double and by js/loader/table.js's own validate (under Node.js,
// testdata/validate.cjs), and the two must answer the same: the same
// message, in the same order of checks, or both nothing. A descriptor
// from Go has the right types, so these are the checks it can fail; they
// are each tried, alone and before or after another.
func TestLoaderMessages(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node on PATH to run the loader's validation: ", err)
	}
	p := newPage()
	var got page.Registration
	restore, ok := page.Install(recorder{installed{p}, &got})
	if !ok {
		t.Fatal("another test's Page is installed")
	}
	defer restore()
	type jsCase struct {
		Descriptor string   `json:"descriptor"`
		Get        bool     `json:"get"`
		Subscribe  bool     `json:"subscribe"`
		Complete   []string `json:"complete"`
	}
	var cases []jsCase
	var onDouble []error
	for _, register := range loaderCases() {
		got = page.Registration{}
		un, err := register()
		un()
		c := jsCase{Descriptor: string(got.Descriptor), Get: got.Get.Get != nil, Subscribe: got.Watch != nil}
		if got.Complete != nil {
			c.Complete = page.Variables(got.Key)
		}
		cases = append(cases, c)
		onDouble = append(onDouble, err)
	}
	onLoader := runLoader(t, node, map[string]any{"constants": loaderConstants(), "cases": cases})
	if len(onLoader) != len(cases) {
		t.Fatalf("the loader answered %d cases of %d", len(onLoader), len(cases))
	}
	for i, want := range onLoader {
		var e *modelcontext.Error
		switch err := onDouble[i]; {
		case want == "" && err != nil:
			t.Errorf("%s: the loader accepts it; the double: %v", cases[i].Descriptor, err)
		case want == "":
		case !errors.As(err, &e) || e.Name != "TypeError" || e.Message != want || e.Field != page.FieldNamed(want) || e.Field == "":
			t.Errorf("%s:\n the loader: %s\n the double: %#v", cases[i].Descriptor, want, err)
		}
	}
}

// recorder is the installed double, which keeps the last registration
// handed to it.
type recorder struct {
	installed
	got *page.Registration
}

func (r recorder) Register(x page.Registration) (func(), error) {
	*r.got = x
	return r.installed.Register(x)
}

// loaderConstants are the constants of Go's that values.js and table.js
// read (the messages' phrases among them), as wasm/cmd/jsbuild writes them
// into the loader.
func loaderConstants() map[string]any {
	c := map[string]any{"KIND_NAMES": registry.Kinds(), "DEFAULT_MIME_TYPE": registry.DefaultMIMEType, "FRAME_ID_BASE": abi.FrameIDBase}
	for k, name := range registry.Kinds() {
		c["K_"+strings.ToUpper(name)] = k
	}
	for _, m := range registry.Messages() {
		c[m.Name] = m.Text
	}
	return c
}

// runLoader runs testdata/validate.cjs on input and returns its answers.
func runLoader(t *testing.T, node string, input any) []string {
	t.Helper()
	in, err := json.Marshal(input)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "testdata/validate.cjs", loaderDir)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node testdata/validate.cjs: %v\n%s", err, stderr.Bytes())
	}
	var answers []string
	if err := json.Unmarshal(out, &answers); err != nil {
		t.Fatalf("node testdata/validate.cjs answered %q: %v", out, err)
	}
	return answers
}

// loaderCases are the registrations TestLoaderMessages tries, valid and
// not.
func loaderCases() []func() (func(), error) {
	get := func() (any, error) { return 1, nil }
	getT := func(map[string]string) (any, error) { return 1, nil }
	res := func(r modelcontext.Resource) func() (func(), error) {
		return func() (func(), error) { return modelcontext.Register(r) }
	}
	tpl := func(t modelcontext.Template) func() (func(), error) {
		return func() (func(), error) { return modelcontext.RegisterTemplate(t) }
	}
	icon := func(src, theme string) []modelcontext.Icon { return []modelcontext.Icon{{Src: src, Theme: theme}} }
	ok := "https://example.com/i.png"
	annotated := func(a modelcontext.Annotations) func() (func(), error) {
		return res(modelcontext.Resource{URI: "state://a", Name: "a", Get: get, Annotations: &a})
	}
	date := func(d string) func() (func(), error) { return annotated(modelcontext.Annotations{LastModified: d}) }
	cases := []func() (func(), error){
		res(modelcontext.Resource{URI: "", Name: "n", Get: get}),
		res(modelcontext.Resource{URI: "cart", Name: "n", Get: get}),
		res(modelcontext.Resource{URI: "c:", Name: "n", Get: get}),
		res(modelcontext.Resource{URI: "1c://x", Name: "n", Get: get}),
		res(modelcontext.Resource{URI: "c:\n", Name: "n", Get: get}),
		res(modelcontext.Resource{URI: "state://x", Get: get}),
		res(modelcontext.Resource{URI: "state://x", Name: "n"}),
		res(modelcontext.Resource{URI: "state://x", Name: "n", Get: get, Title: "t", Description: "d", MimeType: "text/plain"}),
		res(modelcontext.Resource{URI: "state://x", Name: "n", Get: get, Watch: func(func()) func() { return func() {} }}),
		res(modelcontext.Resource{URI: "state://x", Icons: icon("", "")}),
		res(modelcontext.Resource{URI: "state://x", Name: "n", Icons: icon("javascript:alert(1)", "")}),
		res(modelcontext.Resource{URI: "state://x", Name: "n", Get: get, Settle: -time.Millisecond, Icons: []modelcontext.Icon{{Src: ok}, {Src: ok, Theme: "blue"}}}),
		res(modelcontext.Resource{URI: "state://x", Settle: -5 * time.Millisecond}),
		res(modelcontext.Resource{URI: "state://x", Name: "n", Get: get, Settle: -time.Nanosecond}),
		res(modelcontext.Resource{URI: "state://x", Name: "n", Get: get, Settle: -1500 * time.Microsecond, Annotations: &modelcontext.Annotations{Priority: new(2.0)}}),
		res(modelcontext.Resource{URI: "state://x", Name: "n", Get: get, Settle: time.Hour}),
		annotated(modelcontext.Annotations{Priority: new(2.0), Audience: []string{"robots"}}),
		annotated(modelcontext.Annotations{Priority: new(-0.1)}),
		annotated(modelcontext.Annotations{Priority: new(0.0), Audience: []string{"assistant", "user"}}),
		annotated(modelcontext.Annotations{Priority: new(1.0), Audience: []string{"user", "User"}}),
		annotated(modelcontext.Annotations{Priority: new(1.5), LastModified: "yesterday"}),
		annotated(modelcontext.Annotations{}),
		tpl(modelcontext.Template{URITemplate: "", Name: "t", Get: getT}),
		tpl(modelcontext.Template{URITemplate: "{a}://x", Name: "t", Get: getT}),
		tpl(modelcontext.Template{URITemplate: "x://{a}{b}", Name: "t", Get: getT}),
		tpl(modelcontext.Template{URITemplate: "x://{a", Name: "t", Get: getT}),
		tpl(modelcontext.Template{URITemplate: "x://a}", Name: "t", Get: getT}),
		tpl(modelcontext.Template{URITemplate: "x://}{a}", Name: "t", Get: getT}),
		tpl(modelcontext.Template{URITemplate: "x://{a b}", Name: "t", Get: getT}),
		tpl(modelcontext.Template{URITemplate: "x://{}", Name: "t", Get: getT}),
		tpl(modelcontext.Template{URITemplate: "x://{+a}", Icons: icon("ftp://x", "")}),
		tpl(modelcontext.Template{URITemplate: "x://{a}", Icons: icon("ftp://x", "")}),
		tpl(modelcontext.Template{URITemplate: "x://{a}"}),
		tpl(modelcontext.Template{URITemplate: "x://{a}", Name: "t"}),
		tpl(modelcontext.Template{URITemplate: "x://{a.b}/{c%20d}/{a.b}", Name: "t", Get: getT}),
		tpl(modelcontext.Template{URITemplate: "x://{id}", Name: "t", Get: getT, Annotations: &modelcontext.Annotations{Audience: []string{"bots"}},
			Complete: func(ctx context.Context, variable, value string, args map[string]string) ([]string, error) {
				return nil, nil
			}}),
	}
	for _, src := range []string{" javascript:x", "\tJAVASCRIPT:x", "\x00data:x", "ftp://x", "HTTPS://example.com/i.png", "Data:image/png;base64,AA==", "/icons/cart.png", "icons/cart.png", "//example.com/i.png", "a:b"} {
		cases = append(cases, res(modelcontext.Resource{URI: "state://i", Name: "i", Get: get, Icons: icon(src, "")}))
	}
	for _, theme := range []string{"light", "dark", "Light", "blue"} {
		cases = append(cases, res(modelcontext.Resource{URI: "state://i", Name: "i", Get: get, Icons: icon(ok, theme)}))
	}
	for _, d := range []string{"2024-05-01", "2024-13-01", "2024-00-10", "2024-02-29", "2023-02-29", "2024-02-30", "2024-04-31", "0000-02-29", "0400-02-29", "1900-02-29",
		"2024-01-01T10:00", "2024-01-01T25:00", "2024-01-01T10:60", "2024-01-01T10:00:00.123Z", "2024-01-01T10:00+01:00", "2024-01-01T10:00-0130", "2024-01-01T10:00+24:00",
		"2024-01-01 10:00", "2024-01-01t10:00", "2024-01-01T10", "2024-1-01", "+2024-01-01", "2024-01-01Z", "2024-01-01\n", time.Date(2025, 7, 4, 12, 30, 0, 0, time.UTC).Format(time.RFC3339)} {
		cases = append(cases, date(d))
	}
	return cases
}
