//go:build js

package serve

// precompress makes no copies under GOOS=js: the JavaScript platform the
// handler runs on (a Cloudflare Worker) compresses responses itself, and the
// brotli and gzip encoders would add about 1.2 MB to the .wasm (0.4 MB
// gzipped), a good part of the 3 MB a Worker may weigh on the free plan.
func precompress([]byte) (br, gz []byte, err error) { return nil, nil, nil }
