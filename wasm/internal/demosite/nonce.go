package demosite

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"net/http"
	"path"
	"strings"

	"github.com/modelcontext-go/modelcontext/wasm/serve"
)

// NoncePlaceholder is written in the demo's HTML wherever the response's
// nonce goes: on the module's script tag and on the markup it shares
// (data-declarative). Both servers (make demo's and the Worker) put a fresh
// nonce in its place; a server that does not would make it a nonce anyone
// can write.
const NoncePlaceholder = "{{nonce}}"

// withNonce serves the pages of h (an HTML file, or a client-side route
// answered with one) that hold noncePlaceholder with a fresh nonce in its
// place, also named in the Content-Security-Policy's script-src, sent in the
// header: the browser then hides every element's nonce attribute from the
// page's CSS, so a visitor's style cannot read it out. Such a response is
// neither cached nor revalidated, since the next one has another nonce.
// Every other request is h's as it is. With compress, the page is sent with
// brotli or gzip as the request accepts (where the build has them); without,
// as plain bytes, for a platform that compresses itself.
func withNonce(h http.Handler, compress bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ext := path.Ext(r.URL.Path)
		if r.Method != http.MethodGet || (ext != "" && ext != ".html") {
			h.ServeHTTP(w, r)
			return
		}
		// The page as h serves it: whole, uncompressed, unconditional.
		plain := r.Clone(r.Context())
		for _, k := range []string{"Accept-Encoding", "If-None-Match", "If-Modified-Since", "Range", "If-Range"} {
			plain.Header.Del(k)
		}
		page := &pageBuffer{header: http.Header{}}
		h.ServeHTTP(page, plain)
		placeholder := []byte(NoncePlaceholder)
		if page.code != http.StatusOK || !bytes.Contains(page.body.Bytes(), placeholder) {
			h.ServeHTTP(w, r)
			return
		}
		nonce := newNonce()
		body := bytes.ReplaceAll(page.body.Bytes(), placeholder, []byte(nonce))
		hdr := w.Header()
		for k, v := range page.header {
			hdr[k] = v
		}
		hdr.Del("ETag")
		hdr.Del("Content-Length")
		hdr.Set("Cache-Control", "no-store")
		hdr.Set("Content-Security-Policy", withScriptNonce(page.header.Get("Content-Security-Policy"), nonce))
		if compress {
			hdr.Add("Vary", "Accept-Encoding")
			if enc := serve.Negotiate(r.Header.Get("Accept-Encoding"), haveBrotli, true); enc != "" {
				body = compressed(body, enc)
				hdr.Set("Content-Encoding", enc)
			}
		}
		w.WriteHeader(http.StatusOK)
		w.Write(body)
	})
}

// newNonce is 128 random bits in base64, as a Content-Security-Policy nonce.
func newNonce() string {
	b := make([]byte, 16)
	rand.Read(b) // never fails (crypto/rand)
	return base64.StdEncoding.EncodeToString(b)
}

// withScriptNonce adds 'nonce-<nonce>' to the script-src of policy; a
// policy without one is returned as it is (sent in a header, it still hides
// the nonce attributes).
func withScriptNonce(policy, nonce string) string {
	directives := strings.Split(policy, ";")
	for i, d := range directives {
		if f := strings.Fields(d); len(f) > 0 && strings.EqualFold(f[0], "script-src") {
			directives[i] = strings.TrimRight(d, " ") + " 'nonce-" + nonce + "'"
			return strings.Join(directives, ";")
		}
	}
	return policy
}

// pageBuffer is a ResponseWriter that keeps what it is sent.
type pageBuffer struct {
	header http.Header
	code   int
	body   bytes.Buffer
}

func (p *pageBuffer) Header() http.Header { return p.header }

func (p *pageBuffer) WriteHeader(code int) {
	if p.code == 0 {
		p.code = code
	}
}

func (p *pageBuffer) Write(b []byte) (int, error) {
	if p.code == 0 {
		p.code = http.StatusOK
	}
	return p.body.Write(b)
}
