//go:build js && wasm

package modelcontext

import (
	"context"
	"errors"
	"strings"
	"syscall/js"
	"testing"
	"time"
)

// TestTemplateCompleteInTheBrowser: an MCP client's completion/complete
// reaches a template's Complete, with the arguments already chosen, and its
// error comes back naming the template and the variable; unregister
// releases the completers' js.Funcs with get's.
func TestTemplateCompleteInTheBrowser(t *testing.T) {
	setup(t)
	unregister, err := RegisterTemplate(Template{
		URITemplate: "app://go/{city}/{id}",
		Name:        "go",
		Icons:       []Icon{{Src: "https://example.com/go.png", Sizes: []string{"any"}}},
		Get:         func(p map[string]string) (any, error) { return p, nil },
		Complete: func(ctx context.Context, variable, value string, args map[string]string) ([]string, error) {
			if value == "down" {
				return nil, errors.New("the order service is down")
			}
			time.Sleep(time.Millisecond) // it runs in a goroutine: it may block
			return []string{variable + ":" + value + ":" + args["city"]}, ctx.Err()
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	list, err := Templates()
	if err != nil || len(list) == 0 || len(list[len(list)-1].Icons) != 1 || list[len(list)-1].Icons[0].Src != "https://example.com/go.png" {
		t.Errorf("Templates() = %+v, %v", list, err)
	}
	const channel = "goapi-complete"
	window := js.Global()
	server := window.Get("document").Get("modelContext").Call("serveMCP", map[string]any{"channel": channel})
	defer server.Call("stop")
	answers := make(chan string, 8)
	listener := js.FuncOf(func(_ js.Value, args []js.Value) any {
		d := args[0].Get("data")
		if d.Type() == js.TypeObject && d.Get("channel").String() == channel && d.Get("direction").String() == "server-to-client" {
			if p := d.Get("payload"); p.Type() == js.TypeObject {
				select { // never block in a callback from JavaScript
				case answers <- window.Get("JSON").Call("stringify", p).String():
				default:
				}
			}
		}
		return nil
	})
	defer listener.Release()
	window.Call("addEventListener", "message", listener)
	defer window.Call("removeEventListener", "message", listener)
	complete := func(id int, value string) string {
		payload := window.Get("JSON").Call("parse", `{"jsonrpc":"2.0","id":`+itoa(id)+`,"method":"completion/complete","params":{"ref":{"type":"ref/resource","uri":"app://go/{city}/{id}"},"argument":{"name":"id","value":"`+value+`"},"context":{"arguments":{"city":"oslo"}}}}`)
		window.Call("postMessage", map[string]any{"channel": channel, "type": "mcp", "direction": "client-to-server", "payload": payload}, "*")
		select {
		case a := <-answers:
			return a
		case <-time.After(10 * time.Second):
			return "no answer"
		}
	}
	if got, want := complete(1, "4"), `{"jsonrpc":"2.0","id":1,"result":{"completion":{"values":["id:4:oslo"],"total":1,"hasMore":false}}}`; got != want {
		t.Errorf("completion:\n got %s\nwant %s", got, want)
	}
	if got := complete(2, "down"); !strings.Contains(got, `completing \"id\" of \"app://go/{city}/{id}\" failed: the order service is down`) {
		t.Errorf("a failing Complete: %s", got)
	}
	funcs := liveFuncs.Load()
	unregister()
	if got := liveFuncs.Load(); got != funcs-3 { // get, complete.city, complete.id
		t.Errorf("live js.Funcs: %d after unregister, %d before", got, funcs)
	}
}

func itoa(n int) string { return string(rune('0' + n)) }
