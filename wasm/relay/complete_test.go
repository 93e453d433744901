package relay

import (
	"net/url"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestCompletionThroughTheRelay: a desktop client (the Go SDK's) completes a
// template variable of a tab's resource through the relay, over both
// transports and both revisions; the page's completer gets the arguments
// already chosen, and an unknown template is the page's -32602.
func TestCompletionThroughTheRelay(t *testing.T) {
	for _, tr := range transports {
		for _, version := range []string{legacy, modern} {
			t.Run(tr.name+"/"+version, func(t *testing.T) {
				p := openPage(t, "")
				p.Eval(registerCity, nil)
				r := startRelay(t, append(p.attachArgs(), tr.args...)...)
				c := tr.connect(t, r, version)
				completeCity(t, c)
			})
		}
	}
}

// registerCity registers the template the completion tests complete.
const registerCity = `document.modelContext.registerResource({uriTemplate: 'test://city/{country}/{name}', name: 'city', get: (p) => p, complete: {
  name: (value, context) => ['Bergen', 'Berlin', 'Bern', 'Paris'].filter((c) => c.startsWith(value)).map((c) => context.arguments.country + ':' + c),
}}), true`

// completeCity completes the city template's name, and an unknown template.
func completeCity(t *testing.T, c *client) {
	t.Helper()
	if caps := c.InitializeResult().Capabilities; caps == nil || caps.Completions == nil {
		t.Errorf("the relay's client sees no completions capability: %+v", caps)
	}
	res, err := c.Complete(c.ctx(), &mcp.CompleteParams{
		Ref:      &mcp.CompleteReference{Type: "ref/resource", URI: "test://city/{country}/{name}"},
		Argument: mcp.CompleteParamsArgument{Name: "name", Value: "Ber"},
		Context:  &mcp.CompleteContext{Arguments: map[string]string{"country": "no"}},
	})
	if err != nil || strings.Join(res.Completion.Values, " ") != "no:Bergen no:Berlin no:Bern" || res.Completion.Total != 3 || res.Completion.HasMore {
		t.Errorf("completion/complete: %+v, %v", res, err)
	}
	_, err = c.Complete(c.ctx(), &mcp.CompleteParams{
		Ref:      &mcp.CompleteReference{Type: "ref/resource", URI: "test://nope/{x}"},
		Argument: mcp.CompleteParamsArgument{Name: "x", Value: ""},
	})
	if err == nil || !strings.Contains(err.Error(), "test://nope/{x}") {
		t.Errorf("completing an unknown template: %v", err)
	}
}

// TestCompletionThroughTheExtension: the same through the browser extension
// and its native messaging host, for a tab the visitor exposed.
func TestCompletionThroughTheExtension(t *testing.T) {
	b := newExtBrowser(t)
	pop := b.popup()
	waitPopup(pop, `!document.getElementById("no-sites").hidden`)
	allowSite(pop, b.page("/blank.html?test="+url.QueryEscape(t.Name())))
	p := b.page("/relay.html?test=" + url.QueryEscape(t.Name()))
	waitPopup(pop, listed(p.url))
	p.Eval(registerCity, nil)
	expose(pop, p.url)
	for _, version := range []string{legacy, modern} {
		_, c := b.stdioClient(version)
		completeCity(t, c)
	}
}
