package modelcontexttest

import (
	"context"
	"slices"
	"strconv"

	"github.com/modelcontext-go/modelcontext/wasm/modelcontext"
	"github.com/modelcontext-go/modelcontext/wasm/modelcontext/internal/page"
	"github.com/modelcontext-go/modelcontext/wasm/registry"
)

// Reads and completions: what a consumer asks of a registration's getter
// and completer.

// read calls the getter of uri and returns its value: the current concrete
// resource of uri (the loader looks it up in its cache), else the template
// the registry matches it to.
func (p *Page) read(ctx context.Context, uri string) (page.Value, error) {
	p.mu.Lock()
	r := p.byURI[uri]
	var params map[string]string
	if r == nil {
		if id, ps := p.reg.Match(uri); id != 0 {
			r, params = p.byID[id], map[string]string{}
			for _, x := range ps {
				params[x.Name] = x.Value
			}
		}
	}
	p.mu.Unlock()
	if r == nil {
		return nil, notFound(uri)
	}
	if !r.get.Blocking {
		v, failure := r.value(params)
		if failure != "" {
			return nil, &modelcontext.Error{Name: "Error", Message: failure}
		}
		return v, nil
	}
	type outcome struct {
		v       *value
		failure string
	}
	done := make(chan outcome, 1)
	go func() {
		v, failure := r.value(params)
		done <- outcome{v, failure}
	}()
	select {
	case o := <-done:
		if o.failure != "" {
			return nil, &modelcontext.Error{Name: "Error", Message: o.failure}
		}
		return o.v, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func notFound(uri string) error {
	return &modelcontext.Error{Name: "NotFoundError", Message: "modelcontext: no resource is registered for uri " + registry.Quote(uri)}
}

// value calls the getter and encodes its value, or says why there is none.
func (r *registration) value(params map[string]string) (*value, string) {
	return page.Call(r.key, func() (any, error) { return r.get.Get(r.ctx, params) }, func(v any) (*value, string) {
		x, err := encode(v)
		if err != nil {
			return nil, page.EncodeFailure(r.key, err)
		}
		return x, ""
	})
}

// Complete calls the completer of variable of the current template
// uriTemplate, as an MCP client's completion/complete does: value is what
// was typed so far, args the variables already chosen. A template without a
// completer completes to no values; an unknown template is an error. The
// completer's context is its registration's.
func (p *Page) Complete(uriTemplate, variable, value string, args map[string]string) ([]string, error) {
	p.mu.Lock()
	reg := p.byID[p.reg.TemplateID(uriTemplate)]
	p.mu.Unlock()
	if reg == nil {
		return nil, &modelcontext.Error{Name: "NotFoundError", Message: "modelcontexttest: no template is registered for " + strconv.Quote(uriTemplate)}
	}
	if reg.complete == nil || !slices.Contains(page.Variables(uriTemplate), variable) {
		return []string{}, nil
	}
	if args == nil {
		args = map[string]string{}
	}
	return page.Complete(uriTemplate, variable, func() ([]string, error) { return reg.complete(reg.ctx, variable, value, args) })
}
