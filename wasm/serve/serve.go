// Package serve serves the module (modelcontext.js and modelcontext.wasm from
// make build) and the page that loads it from a Go net/http server, with the
// headers a browser needs to start it quickly and safely:
//
//   - Content-Type from the file name: application/wasm for .wasm (without
//     it the browser cannot compile the module while it downloads),
//     text/javascript for .js and .mjs, text/html, text/css, JSON and the
//     usual images and fonts; X-Content-Type-Options: nosniff on every
//     response.
//   - Compression: a brotli and a gzip copy of every text-like file (.wasm
//     included) is made once, when the handler is created, and the one the
//     browser accepts (Accept-Encoding) is sent, with Vary: Accept-Encoding.
//   - Caching: a strong ETag per file and encoding, so a revisit asks
//     If-None-Match and gets 304 Not Modified without the body. Files whose
//     name carries a content hash (see [Hashed]) are sent with
//     Cache-Control: public, max-age=31536000, immutable; every other file
//     with Cache-Control: no-cache (the browser keeps it and revalidates it
//     on each visit, which costs one round trip and no body).
//   - A Content-Security-Policy ([DefaultCSP]) under which the module runs:
//     script-src 'self' 'wasm-unsafe-eval', the least a Go WebAssembly module
//     needs, without 'unsafe-eval' or inline scripts.
//
// A Go program that embeds the build and serves it beside its own pages:
//
//	//go:embed static
//	var static embed.FS
//
//	func main() {
//		files, _ := fs.Sub(static, "static") // modelcontext.js, modelcontext-runtime.js, modelcontext.wasm
//		h, err := serve.New(files, nil)
//		if err != nil {
//			log.Fatal(err)
//		}
//		http.Handle("/static/", http.StripPrefix("/static", h))
//		log.Fatal(http.ListenAndServe("127.0.0.1:8080", nil))
//	}
//
// The handler reads the files it serves when it is created (or, with
// [Options].Lazy, on their first request) and keeps them in memory: a file
// changed or added afterwards is served as it was, or not at all, until a new
// handler is made. Folders are never listed; a folder's index.html is served
// for the folder; GET and HEAD are the only methods.
//
// The same handler runs inside a Cloudflare Worker (GOOS=js GOARCH=wasm with
// github.com/syumai/workers), where the platform compresses responses: there
// it is created with Compression set to [Uncompressed] and Lazy set, because
// the platform may start a fresh Go program at any request.
//
// Every error this package returns or sends starts with "modelcontext:".
package serve

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// DefaultCSP is the Content-Security-Policy sent when [Options] names none.
// Scripts, styles, fetches (the .wasm) and frames come from the page's own
// origin only; 'wasm-unsafe-eval' lets that origin's WebAssembly compile,
// and nothing lets a string of JavaScript run as code. Images may also be
// data: URLs. A page that needs more (a CDN, an analytics endpoint) passes
// its own policy, keeping 'wasm-unsafe-eval' in script-src.
const DefaultCSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; " +
	"img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; " +
	"form-action 'self'; frame-ancestors 'self'"

// Cache-Control values.
const (
	// CacheImmutable is sent for content-hashed file names: kept a year,
	// never revalidated.
	CacheImmutable = "public, max-age=31536000, immutable"
	// CacheRevalidate is sent for every other file: kept, and revalidated
	// (If-None-Match, 304) before each use.
	CacheRevalidate = "no-cache"
)

// Compression says how response bodies are compressed.
type Compression int

const (
	// Precompressed makes a brotli and a gzip copy of each compressible file
	// once and sends the one Accept-Encoding prefers (brotli, then gzip).
	// Built with GOOS=js (a Worker, where the platform compresses), the
	// compressors are left out of the binary, to keep it small, and the
	// plain bytes are sent.
	Precompressed Compression = iota
	// Uncompressed sends the bytes as they are, for platforms that compress
	// responses themselves (Cloudflare Workers compresses again a body that
	// already has a Content-Encoding).
	Uncompressed
)

// BrotliQuality is the brotli level of the precompressed copies: on the
// module's .wasm it takes about 0.15 s on one core and gives 15% less than
// gzip; level 11 gives a further 13% but takes 5 s, too slow for every start
// of a server. Compress at build time for the last bytes. Files of at most
// SmallFile bytes (modelcontext.js, what every visitor downloads) get level
// 11: a few milliseconds once, and on modelcontext.js 8% fewer bytes.
const BrotliQuality = 6

// SmallFile is the size up to which files are compressed at brotli's best
// level.
const SmallFile = 64 << 10

// Options are the handler's settings; the zero value (or nil) is valid.
type Options struct {
	// Fallback names a file (e.g. "index.html") served for a path that
	// names no file and has no extension: the client-side routes of a
	// single-page app such as /cart or /order/42. A path with an extension
	// (/missing.js) stays 404. Empty: no fallback.
	Fallback string
	// Compression chooses between precompressed copies (the default) and
	// plain bytes.
	Compression Compression
	// ContentSecurityPolicy is sent on every response; empty means
	// DefaultCSP.
	ContentSecurityPolicy string
	// Lazy reads, hashes and compresses each file on its first request
	// instead of in New: for runtimes that start a fresh Go program for
	// each request, where only the requested file should cost anything.
	Lazy bool
}

// Handler serves the regular files of an fs.FS. Make one with [New].
type Handler struct {
	fsys  fs.FS
	opt   Options
	csp   string
	files map[string]*file // by fs.FS name, e.g. "static/modelcontext.wasm"
}

// file is one file as served: its bytes in each encoding, loaded once.
type file struct {
	name string
	once sync.Once
	err  error

	contentType string
	cache       string
	compress    bool // a compressed copy exists: Vary: Accept-Encoding applies
	identity    variant
	br, gz      *variant // nil when not smaller than identity, or not made
}

type variant struct {
	body []byte
	etag string
}

// New returns a handler serving the regular files of fsys (names as fs.FS
// spells them, the URL path without its leading slash). Unless opt.Lazy is
// set it reads every file now and fails if one cannot be read. It fails if
// opt.Fallback names no file of fsys.
func New(fsys fs.FS, opt *Options) (*Handler, error) {
	h := &Handler{fsys: fsys, files: map[string]*file{}}
	if opt != nil {
		h.opt = *opt
	}
	h.csp = h.opt.ContentSecurityPolicy
	if h.csp == "" {
		h.csp = DefaultCSP
	}
	if h.opt.Compression != Precompressed && h.opt.Compression != Uncompressed {
		return nil, fmt.Errorf("modelcontext: serve: Options.Compression %d is not Precompressed or Uncompressed", h.opt.Compression)
	}
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			h.files[name] = &file{name: name}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("modelcontext: serve: listing the files: %w", err)
	}
	if fb := h.opt.Fallback; fb != "" {
		if _, ok := h.files[fb]; !ok {
			return nil, fmt.Errorf("modelcontext: serve: Options.Fallback %q is not a file of the folder served", fb)
		}
	}
	if !h.opt.Lazy {
		for _, f := range h.files {
			if err := h.load(f); err != nil {
				return nil, err
			}
		}
	}
	return h, nil
}

// load reads, hashes and compresses f, once.
func (h *Handler) load(f *file) error {
	f.once.Do(func() {
		body, err := fs.ReadFile(h.fsys, f.name)
		if err != nil {
			f.err = fmt.Errorf("modelcontext: serve: reading %s: %w", f.name, err)
			return
		}
		f.contentType = ContentType(f.name)
		f.cache = CacheRevalidate
		if Hashed(f.name) {
			f.cache = CacheImmutable
		}
		sum := sha256.Sum256(body)
		tag := hex.EncodeToString(sum[:16])
		f.identity = variant{body: body, etag: `"` + tag + `"`}
		if h.opt.Compression != Precompressed || !Compressible(f.contentType) {
			return
		}
		br, gz, err := precompress(body)
		if err != nil {
			f.err = fmt.Errorf("modelcontext: serve: compressing %s: %w", f.name, err)
			return
		}
		if br != nil && len(br) < len(body) {
			f.br = &variant{body: br, etag: `"` + tag + `-br"`}
		}
		if gz != nil && len(gz) < len(body) {
			f.gz = &variant{body: gz, etag: `"` + tag + `-gz"`}
		}
		f.compress = f.br != nil || f.gz != nil
	})
	return f.err
}

// ServeHTTP serves the file the URL path names (after http.StripPrefix, if
// the handler is mounted under a prefix).
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hdr := w.Header()
	hdr.Set("X-Content-Type-Options", "nosniff")
	hdr.Set("Content-Security-Policy", h.csp)
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		hdr.Set("Allow", "GET, HEAD")
		h.error(w, http.StatusMethodNotAllowed, fmt.Sprintf("modelcontext: %s %s: only GET and HEAD are served", r.Method, r.URL.Path))
		return
	}
	f := h.lookup(r.URL.Path)
	if f == nil {
		h.error(w, http.StatusNotFound, fmt.Sprintf("modelcontext: %s: no such file", r.URL.Path))
		return
	}
	if err := h.load(f); err != nil {
		h.error(w, http.StatusInternalServerError, err.Error())
		return
	}
	v := &f.identity
	if f.compress {
		hdr.Add("Vary", "Accept-Encoding")
		switch Negotiate(r.Header.Get("Accept-Encoding"), f.br != nil, f.gz != nil) {
		case "br":
			v = f.br
			hdr.Set("Content-Encoding", "br")
		case "gzip":
			v = f.gz
			hdr.Set("Content-Encoding", "gzip")
		}
	}
	hdr.Set("Content-Type", f.contentType)
	hdr.Set("Cache-Control", f.cache)
	hdr.Set("ETag", v.etag)
	// ServeContent answers If-None-Match with 304 (and Range requests)
	// from the ETag set above; the zero time sends no Last-Modified.
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(v.body))
}

// lookup finds the file for a URL path: the file itself, a folder's
// index.html, or the fallback for an extension-less path.
func (h *Handler) lookup(urlPath string) *file {
	name := strings.TrimPrefix(path.Clean("/"+urlPath), "/")
	if name == "" {
		name = "."
	}
	if f, ok := h.files[name]; ok {
		return f
	}
	if f, ok := h.files[path.Join(name, "index.html")]; ok {
		return f
	}
	if h.opt.Fallback != "" && path.Ext(name) == "" {
		return h.files[h.opt.Fallback]
	}
	return nil
}

func (h *Handler) error(w http.ResponseWriter, code int, msg string) {
	hdr := w.Header()
	hdr.Del("Content-Encoding")
	hdr.Del("ETag")
	hdr.Set("Cache-Control", "no-store")
	http.Error(w, msg, code)
}

// hashedName matches a base name with a content hash before its extension:
// name.<at least 8 hex digits>.ext, e.g. modelcontext.3f9a2b1c.wasm or
// app.0a1b2c3d4e5f.min.js.
var hashedName = regexp.MustCompile(`^[^/]+\.[0-9a-fA-F]{8,}(\.[A-Za-z0-9]+)+$`)

// Hashed reports whether a file name carries a content hash, by the
// convention name.<8 or more hex digits>.ext (what bundlers such as Vite,
// webpack and esbuild emit with [hash] in the file name): such a file never
// changes under its name and is cached as immutable.
func Hashed(name string) bool { return hashedName.MatchString(path.Base(name)) }

// contentTypes pins the types a page depends on, whatever the system's MIME
// table says (and WebAssembly builds have none).
var contentTypes = map[string]string{
	".wasm":        "application/wasm",
	".js":          "text/javascript; charset=utf-8",
	".mjs":         "text/javascript; charset=utf-8",
	".cjs":         "text/javascript; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".html":        "text/html; charset=utf-8",
	".htm":         "text/html; charset=utf-8",
	".json":        "application/json",
	".map":         "application/json",
	".webmanifest": "application/manifest+json",
	".txt":         "text/plain; charset=utf-8",
	".md":          "text/markdown; charset=utf-8",
	".xml":         "application/xml",
	".svg":         "image/svg+xml",
	".png":         "image/png",
	".jpg":         "image/jpeg",
	".jpeg":        "image/jpeg",
	".gif":         "image/gif",
	".webp":        "image/webp",
	".avif":        "image/avif",
	".ico":         "image/x-icon",
	".woff":        "font/woff",
	".woff2":       "font/woff2",
}

// ContentType returns the Content-Type for a file name: the table of this
// package, then the system's MIME table, then application/octet-stream
// (never a guess from the content: responses carry nosniff).
func ContentType(name string) string {
	ext := strings.ToLower(path.Ext(name))
	if ct, ok := contentTypes[ext]; ok {
		return ct
	}
	if ct := mime.TypeByExtension(ext); ct != "" {
		return ct
	}
	return "application/octet-stream"
}

// Compressible reports whether a body of this type is worth compressing:
// text, JavaScript, JSON, XML, SVG and WebAssembly, not images or fonts that
// are compressed already.
func Compressible(contentType string) bool {
	ct, _, _ := strings.Cut(contentType, ";")
	ct = strings.ToLower(strings.TrimSpace(ct))
	switch {
	case strings.HasPrefix(ct, "text/"),
		ct == "application/wasm",
		ct == "application/javascript",
		ct == "application/json",
		ct == "application/xml",
		strings.HasSuffix(ct, "+json"),
		strings.HasSuffix(ct, "+xml"):
		return true
	}
	return false
}

// Negotiate picks the content coding for an Accept-Encoding header: "br" or
// "gzip" when the header accepts it (q > 0, named or through "*") and that
// copy exists, brotli first at equal weight; "" for the plain bytes.
func Negotiate(acceptEncoding string, haveBr, haveGzip bool) string {
	qBr, qGzip := -1.0, -1.0
	qAny := -1.0
	for part := range strings.SplitSeq(acceptEncoding, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		q, ok := weight(params)
		if !ok {
			continue
		}
		switch strings.ToLower(strings.TrimSpace(coding)) {
		case "br":
			qBr = q
		case "gzip", "x-gzip":
			qGzip = q
		case "*":
			qAny = q
		}
	}
	if qBr < 0 {
		qBr = qAny
	}
	if qGzip < 0 {
		qGzip = qAny
	}
	switch {
	case haveBr && qBr > 0 && (qBr >= qGzip || !haveGzip):
		return "br"
	case haveGzip && qGzip > 0:
		return "gzip"
	case haveBr && qBr > 0:
		return "br"
	}
	return ""
}

// weight parses the parameters of one Accept-Encoding element: its q value
// (1 when absent); ok is false if q is malformed.
func weight(params string) (q float64, ok bool) {
	q = 1
	for p := range strings.SplitSeq(params, ";") {
		k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
		if !strings.EqualFold(strings.TrimSpace(k), "q") {
			continue
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || f < 0 || f > 1 {
			return 0, false
		}
		q = f
	}
	return q, true
}
