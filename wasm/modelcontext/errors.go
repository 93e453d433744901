package modelcontext

import (
	"errors"
	"runtime"
	"strconv"
	"strings"

	"github.com/modelcontext-go/modelcontext/wasm/modelcontext/internal/page"
)

// ErrNotFound is the error of a Read or Subscribe of a uri that no
// resource or template answers. The error returned is an [*Error] whose
// message names the uri; test for it with errors.Is(err, ErrNotFound).
var ErrNotFound = errors.New("modelcontext: no resource is registered for that uri")

// ErrNotLoaded means that the page has no document.modelContext with the
// module's members (no document.modelContext.registerResource):
// modelcontext.js is not loaded (yet). Load it with a script tag,
// <script src=".../modelcontext.js">, before the app starts, call [Ready] to
// wait for a tag later in the page, or call [Load]. Outside the browser, where
// there is no page, every call returns an error for which
// errors.Is(err, ErrNotLoaded) holds, unless a test made one with
// modelcontexttest.NewPage.
var ErrNotLoaded = errors.New("modelcontext: the module is not loaded on this page")

// noPage is the error of every call outside the browser without a test's
// page.
type noPage struct{}

func (noPage) Error() string {
	return "modelcontext: there is no page on " + runtime.GOOS + "/" + runtime.GOARCH + " (the package talks to the browser's document.modelContext, in GOOS=js GOARCH=wasm builds); in tests, make one with modelcontexttest.NewPage"
}

func (noPage) Is(target error) bool { return target == ErrNotLoaded }

// Error is an error that came from JavaScript: thrown or rejected by the
// module (an invalid descriptor, an unknown uri, a module that failed to
// load) or by a resource's getter.
type Error struct {
	// Name is the JavaScript error's name: "TypeError", "NotFoundError",
	// "Error", and so on.
	Name string
	// Message is the JavaScript error's message. The module's messages
	// start with "modelcontext:".
	Message string
	// Field is, for a TypeError about a descriptor, the field it names as
	// the module spells it ("uri", "name", "uriTemplate",
	// "annotations.priority"), and for a TypeError or RangeError about an
	// argument, the argument ("revision", for [ChangesSince]); otherwise
	// empty.
	Field string
}

func (e *Error) Error() string {
	if strings.HasPrefix(e.Message, "modelcontext:") {
		return e.Message
	}
	if e.Name == "" {
		return "modelcontext: " + e.Message
	}
	return "modelcontext: " + e.Name + ": " + e.Message
}

// Is reports whether e is a NotFoundError, so that errors.Is(err,
// ErrNotFound) holds for the module's unknown-uri errors.
func (e *Error) Is(target error) bool {
	return target == ErrNotFound && e.Name == "NotFoundError"
}

// newError builds the Error of a JavaScript error with this name and
// message, finding the descriptor field or argument a TypeError or
// RangeError names.
func newError(name, message string) *Error {
	e := &Error{Name: name, Message: message}
	if name == "TypeError" || name == "RangeError" {
		e.Field = page.FieldNamed(message)
	}
	return e
}

// A DecodeError is a resource's value that [Read], [Subscribe] or
// [UpdatedEvent.Decode] could not store in the Go value asked for. Err is
// encoding/json's error (a *json.UnmarshalTypeError, a *json.SyntaxError,
// ...), which errors.As finds through it, or one that says why the value
// has no JSON (a binary value decodes only into a []byte).
type DecodeError struct {
	URI string
	Err error
}

func (e *DecodeError) Error() string {
	return "modelcontext: decoding the value of " + strconv.Quote(e.URI) + ": " + e.Err.Error()
}

func (e *DecodeError) Unwrap() error { return e.Err }
