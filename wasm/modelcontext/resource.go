package modelcontext

import (
	"context"
	"time"
)

// Resource describes a live resource for [Register].
type Resource struct {
	// URI is the resource's stable identity: a scheme, ":", and at least one
	// more character, e.g. "state://cart". Required.
	URI string
	// Name is a short logical name, e.g. "cart". Required.
	Name string
	// Title and Description are human text an agent reads to understand
	// the value.
	Title       string
	Description string
	// MimeType defaults to "application/json".
	MimeType string
	// Annotations are optional MCP annotations.
	Annotations *Annotations
	// Icons are optional MCP icons, listed as given (a path resolved
	// against the document).
	Icons []Icon

	// Get returns the current value. It is called on every read and every
	// push, inside a call from JavaScript: it must return at once, without
	// blocking (no channel receive that waits, no network call). For a
	// value that takes time, set GetContext instead.
	//
	// The value is sent to JavaScript as described in the package
	// documentation (see "Values"). An error, a panic or a value that
	// JSON cannot hold makes that read fail; it never stops the program.
	Get func() (any, error)
	// GetContext, if set, is used instead of Get, for a value that takes
	// time to get (a request to the app's server, a database query): each
	// read and each push runs it in a goroutine of its own, and the page
	// receives a Promise that its result settles (its error rejects it).
	// Pushes are delivered in the order of their onChange calls; a value
	// that arrives after a newer one was delivered is dropped, never
	// delivered late. ctx ends when the registration does (its unregister,
	// or, for a resource with Watch, a new registration of its uri).
	// Either Get or GetContext is required.
	GetContext func(ctx context.Context) (any, error)

	// Watch, if set, is the push source: Register calls it once, and it
	// must arrange for onChange to be called whenever the value may have
	// changed, returning a function that stops that. The module then calls
	// Get and sends the value on only if it differs from the last one
	// sent. onChange may be called from any goroutine, and does nothing
	// once the resource is unregistered or replaced. A [Notifier]'s Watch
	// method is a ready-made one. Without Watch the resource is pull-only.
	Watch func(onChange func()) (stop func())
	// Settle, if above 0, makes a burst of onChange calls (typing,
	// dragging) one push: the value is read Settle after the last call of
	// the burst, and at the latest 4 × Settle after its first.
	Settle time.Duration
}

// Template describes a URI template resource for [RegisterTemplate]: a
// family of resources read on demand, such as "app://orders/{id}".
type Template struct {
	// URITemplate is an RFC 6570 level 1 template: each {name} matches one
	// non-empty run of characters without "/". Required.
	URITemplate string
	// Name, Title, Description, MimeType, Annotations and Icons are as in
	// Resource.
	Name        string
	Title       string
	Description string
	MimeType    string
	Annotations *Annotations
	Icons       []Icon
	// Get returns the value of the resource the template's parameters
	// name, e.g. {"id": "42"} for "app://orders/42" (percent-decoded).
	// The rules of Resource.Get apply.
	Get func(params map[string]string) (any, error)
	// GetContext, if set, is used instead of Get, with the rules of
	// Resource.GetContext. Either Get or GetContext is required.
	GetContext func(ctx context.Context, params map[string]string) (any, error)
	// Complete, if set, offers the values of the template's variables as
	// an MCP client's user types them (completion/complete): value is what
	// was typed of variable so far, args the variables already chosen. It
	// runs in a goroutine of its own, so it may take time (the module
	// answers the client with an error after 5 seconds); ctx ends when the
	// registration does. At most 100 of the values are sent. An error fails
	// that completion; a panic is caught and fails it too.
	Complete func(ctx context.Context, variable, value string, args map[string]string) ([]string, error)
}

// Icon is an MCP icon of a resource or template.
type Icon struct {
	// Src is an https: or data: URL, or a path resolved against the
	// document; never javascript: or another scheme. Required.
	Src      string   `json:"src"`
	MimeType string   `json:"mimeType,omitempty"`
	Sizes    []string `json:"sizes,omitempty"` // e.g. "48x48", or "any"
	Theme    string   `json:"theme,omitempty"` // "light" or "dark": the background it is drawn for
}

// Annotations are the MCP annotations of a resource.
type Annotations struct {
	// Audience says who the resource is for: "user", "assistant" or both.
	Audience []string `json:"audience,omitempty"`
	// Priority is how important the resource is, from 0 (least) to 1
	// (most); nil leaves it unset. In Go 1.26: Priority: new(0.8).
	Priority *float64 `json:"priority,omitempty"`
	// LastModified is when the resource last changed, as an ISO 8601 date,
	// e.g. t.Format(time.RFC3339).
	LastModified string `json:"lastModified,omitempty"`
}

// Info is a resource as [Resources] and [OnListChanged] list it.
type Info struct {
	URI          string       `json:"uri"`
	Name         string       `json:"name"`
	Title        string       `json:"title,omitempty"`
	Description  string       `json:"description,omitempty"`
	MimeType     string       `json:"mimeType"`
	Annotations  *Annotations `json:"annotations,omitempty"`
	Icons        []Icon       `json:"icons,omitempty"`
	Subscribable bool         `json:"subscribable"` // it has a push source
}

// TemplateInfo is a template as [Templates] lists it.
type TemplateInfo struct {
	URITemplate string       `json:"uriTemplate"`
	Name        string       `json:"name"`
	Title       string       `json:"title,omitempty"`
	Description string       `json:"description,omitempty"`
	MimeType    string       `json:"mimeType"`
	Annotations *Annotations `json:"annotations,omitempty"`
	Icons       []Icon       `json:"icons,omitempty"`
}

// resourceDescriptor and templateDescriptor are the descriptors the module's
// registerResource reads, without get and subscribe. Empty required fields
// are sent as they are, so that the module's own validation names them.
type resourceDescriptor struct {
	URI         string       `json:"uri"`
	Name        string       `json:"name"`
	Title       string       `json:"title,omitempty"`
	Description string       `json:"description,omitempty"`
	MimeType    string       `json:"mimeType,omitempty"`
	Annotations *Annotations `json:"annotations,omitempty"`
	Icons       []Icon       `json:"icons,omitempty"`
	Settle      *float64     `json:"settle,omitempty"` // ms
}

type templateDescriptor struct {
	URITemplate string       `json:"uriTemplate"`
	Name        string       `json:"name"`
	Title       string       `json:"title,omitempty"`
	Description string       `json:"description,omitempty"`
	MimeType    string       `json:"mimeType,omitempty"`
	Annotations *Annotations `json:"annotations,omitempty"`
	Icons       []Icon       `json:"icons,omitempty"`
}
