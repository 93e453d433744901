package relay

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
)

// serveStdio relays between the page and the one client on the other end of
// in and out (the process that started the relay): newline-delimited
// JSON-RPC, one message per line. It returns when in ends or ctx is done.
func serveStdio(ctx context.Context, tab *Tab, in io.Reader, out io.Writer) error {
	lines := newQueue[[]byte]()
	written := make(chan error, 1)
	go func() {
		var err error
		for {
			b, ok := lines.pop()
			if !ok {
				break
			}
			if err == nil {
				_, err = out.Write(b)
			}
		}
		written <- err
	}()
	write := func(raw []byte) {
		b := make([]byte, 0, len(raw)+1)
		lines.push(append(append(b, raw...), '\n'))
	}
	s := tab.openSession(func(m *message) { write(m.raw) })

	read := make(chan error, 1)
	go func() {
		r := bufio.NewReaderSize(in, 64<<10)
		for {
			line, err := r.ReadBytes('\n')
			if line = bytes.TrimSpace(line); len(line) > 0 {
				if json.Valid(line) {
					s.FromClient(line)
				} else {
					write(errorResponse(nil, codeParseError, "Parse error: the line is not JSON"))
				}
			}
			if err != nil {
				if errors.Is(err, io.EOF) {
					err = nil
				}
				read <- err
				return
			}
		}
	}()
	var err error
	select {
	case err = <-read:
	case <-ctx.Done():
	case <-tab.goneCh:
		err = tab.gone
	}
	s.Close()
	lines.close()
	if werr := <-written; err == nil {
		err = werr
	}
	return err
}
