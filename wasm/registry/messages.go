package registry

// The wording of registerResource's TypeErrors, which the loader throws
// (js/loader/table.js validates a descriptor at the call, before Go may
// have started) and nothing in this package does: it lives here so that
// the loader and the Go test double modelcontexttest spell it alike.
// wasm/cmd/jsbuild hands each phrase to the loader as its own constant (the
// name Messages gives it, which esbuild replaces with the string); the
// loader adds the dynamic parts (the field, the uri, what it got). A
// message reads
//
//	MsgPrefix + `"field" ` + phrase + ` (uri "state://cart")`
//
// The loader's other messages that share a phrase (MsgString, MsgFunction,
// MsgObject) take it from here too: jsbuild's TestTheLoaderSpellsNoMessage
// fails when a loader file spells one itself.
const (
	// MsgPrefix begins every message.
	MsgPrefix = "modelcontext: registerResource: "
	// MsgReading comes before the quoted field whose read threw.
	MsgReading = "reading "
	// MsgThrew follows that field, before what it threw.
	MsgThrew = " threw: "
	// MsgDescriptor is for a descriptor that is not an object, before its kind.
	MsgDescriptor = "the descriptor must be an object, got "
	// MsgURIRequired is for a descriptor with neither uri nor uriTemplate.
	MsgURIRequired = `"uri" is required (a string like "state://cart")`
	// MsgRequired is for a missing field.
	MsgRequired = "is required"
	// MsgGetRequired is for a missing get.
	MsgGetRequired = MsgRequired + ", a function that returns the current value"
	// MsgEmpty is for an empty string.
	MsgEmpty = "must not be empty"
	// MsgString is for a field that is not a string, before its type.
	MsgString = "must be a string, got "
	// MsgFunction is for a field that is not a function, before its type.
	MsgFunction = "must be a function, got "
	// MsgObject is for a field that is not an object, before its type.
	MsgObject = "must be an object, got "
	// MsgArray is for a field that is not an array, before its type.
	MsgArray = "must be an array, got "
	// MsgNoScheme follows a uri (or uriTemplate) without a scheme.
	MsgNoScheme = `has no scheme; write it like "state://cart"`
	// MsgWithURI is for a uriTemplate given beside a uri.
	MsgWithURI = `must not be given together with "uri"`
	// MsgTemplateSubscribe is for a template's subscribe.
	MsgTemplateSubscribe = "is not supported with a uriTemplate: templates are read on demand; register a concrete uri to push it"
	// MsgCompleteNotTemplate is for the complete of a concrete uri.
	MsgCompleteNotTemplate = "is for templates only: completion offers values of a uriTemplate's {variables}"
	// MsgCompleters is for a complete that is not an object, before its type.
	MsgCompleters = "must be an object of completers, {variable: (value, context) => string[]}, got "
	// MsgNoVariable is for a completer of no variable, before the template's variables.
	MsgNoVariable = "names no variable of the template (its variables: "
	// MsgCompleter is for a completer that is not a function, before its type.
	MsgCompleter = "must be a function (value, context) => string[], got "
	// MsgIcons is for icons that are not an array, before their type.
	MsgIcons = "must be an array of {src, mimeType?, sizes?, theme?}, got "
	// MsgIcon is for an icon that is not an object, before its type.
	MsgIcon = "must be an object {src, mimeType?, sizes?, theme?}, got "
	// MsgIconSrc is for an icon's src of another scheme, before the src.
	MsgIconSrc = "must be an https: or data: URL, or a path, got "
	// MsgIconSizes is for an icon's sizes that are not strings.
	MsgIconSizes = `must be an array of strings like "48x48" or "any"`
	// MsgIconTheme is for an icon's theme of another name.
	MsgIconTheme = `must be "light" or "dark"`
	// MsgSettle is for a settle that is no number of milliseconds, before what it is.
	MsgSettle = "must be a number of milliseconds, 0 or more, got "
	// MsgAudience is for an annotations.audience entry of another name.
	MsgAudience = `must be "user" or "assistant"`
	// MsgPriority is for an annotations.priority out of range.
	MsgPriority = "must be a number from 0 to 1"
	// MsgLastModified is for an annotations.lastModified that is no date.
	MsgLastModified = "must be an ISO 8601 date string"
	// MsgCloseWithoutOpen follows a uriTemplate with a "}" before its "{".
	MsgCloseWithoutOpen = `has a "}" without "{"`
	// MsgOpenWithoutClose follows a uriTemplate with an unclosed "{".
	MsgOpenWithoutClose = `has a "{" without "}"`
	// MsgExpression follows a uriTemplate, before its expression that is no {name}.
	MsgExpression = "has the expression {"
	// MsgLevel1 follows that expression.
	MsgLevel1 = "}; only simple {name} expressions (RFC 6570 level 1) are supported"
	// MsgAdjacent follows a uriTemplate with two expressions next to each other.
	MsgAdjacent = "has two expressions next to each other; separate them with a literal"
	// MsgSignalThrew is for registerResource's options whose signal threw when read, before what it threw.
	MsgSignalThrew = "threw when read: "
	// MsgAbortSignal is for an options.signal that is no AbortSignal, before its type.
	MsgAbortSignal = "must be an AbortSignal, got "
)

// Message is one of the messages' phrases and the name of the loader's
// constant that holds it.
type Message struct {
	Name string // the loader's constant, MSG_ and the Go name after Msg in capitals
	Text string
}

// Messages returns every Msg constant under its name in the loader, in the
// order of their declarations above.
func Messages() []Message {
	return []Message{
		{"MSG_PREFIX", MsgPrefix}, {"MSG_READING", MsgReading}, {"MSG_THREW", MsgThrew},
		{"MSG_DESCRIPTOR", MsgDescriptor}, {"MSG_URI_REQUIRED", MsgURIRequired},
		{"MSG_REQUIRED", MsgRequired}, {"MSG_GET_REQUIRED", MsgGetRequired}, {"MSG_EMPTY", MsgEmpty},
		{"MSG_STRING", MsgString}, {"MSG_FUNCTION", MsgFunction}, {"MSG_OBJECT", MsgObject}, {"MSG_ARRAY", MsgArray},
		{"MSG_NO_SCHEME", MsgNoScheme}, {"MSG_WITH_URI", MsgWithURI},
		{"MSG_TEMPLATE_SUBSCRIBE", MsgTemplateSubscribe}, {"MSG_COMPLETE_NOT_TEMPLATE", MsgCompleteNotTemplate},
		{"MSG_COMPLETERS", MsgCompleters}, {"MSG_NO_VARIABLE", MsgNoVariable}, {"MSG_COMPLETER", MsgCompleter},
		{"MSG_ICONS", MsgIcons}, {"MSG_ICON", MsgIcon}, {"MSG_ICON_SRC", MsgIconSrc},
		{"MSG_ICON_SIZES", MsgIconSizes}, {"MSG_ICON_THEME", MsgIconTheme},
		{"MSG_SETTLE", MsgSettle}, {"MSG_AUDIENCE", MsgAudience}, {"MSG_PRIORITY", MsgPriority}, {"MSG_LAST_MODIFIED", MsgLastModified},
		{"MSG_CLOSE_WITHOUT_OPEN", MsgCloseWithoutOpen}, {"MSG_OPEN_WITHOUT_CLOSE", MsgOpenWithoutClose},
		{"MSG_EXPRESSION", MsgExpression}, {"MSG_LEVEL1", MsgLevel1}, {"MSG_ADJACENT", MsgAdjacent},
		{"MSG_SIGNAL_THREW", MsgSignalThrew}, {"MSG_ABORT_SIGNAL", MsgAbortSignal},
	}
}
