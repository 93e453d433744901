package relay

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/chromedp/cdproto"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// cdpConn is a connection to a browser's DevTools endpoint: commands go out
// with an id (and, for a tab, its flat session id), and each answer comes
// back to its caller; events go to the handler given to dialCDP, one at a
// time, in the order the browser sent them.
//
// It is deliberately small: chromedp's Context attaches to a tab by enabling
// a dozen domains on it and closes the tab when its context ends, which is
// not acceptable for a tab that belongs to the user.
type cdpConn struct {
	conn chromedp.Transport // a WebSocket (--attach) or the launched browser's pipe

	wmu  sync.Mutex // serializes writes, so that commands reach the browser in call order
	mu   sync.Mutex
	next int64
	wait map[int64]func(*cdproto.Message)
	err  error         // why the connection ended
	done chan struct{} // closed when the read loop ends

	events *queue[*cdproto.Message]
}

// dialCDP connects to the browser endpoint wsURL (ws://host:port/devtools/browser/...).
// Events are handed to onEvent from a goroutine of their own, in order.
func dialCDP(ctx context.Context, wsURL string, onEvent func(*cdproto.Message)) (*cdpConn, error) {
	conn, err := chromedp.DialContext(ctx, wsURL)
	if err != nil {
		return nil, fmt.Errorf("connecting to the browser at %s: %w", wsURL, err)
	}
	return newCDPConn(conn, onEvent), nil
}

// newCDPConn speaks the DevTools protocol on conn; events are handed to
// onEvent from a goroutine of their own, in order.
func newCDPConn(conn chromedp.Transport, onEvent func(*cdproto.Message)) *cdpConn {
	c := &cdpConn{conn: conn, wait: map[int64]func(*cdproto.Message){}, done: make(chan struct{}), events: newQueue[*cdproto.Message]()}
	go c.read()
	go func() {
		for {
			ev, ok := c.events.pop()
			if !ok {
				return
			}
			onEvent(ev)
		}
	}()
	return c
}

// pipeTransport is the DevTools protocol on the pipe of a browser started
// with --remote-debugging-pipe: the browser reads commands from its fd 3
// (w here) and writes answers and events to its fd 4 (r), each message JSON
// followed by a NUL byte. Only the relay holds the pipe's ends, so no other
// process can reach the browser, as it could a debugging port.
type pipeTransport struct {
	w  *os.File
	rf *os.File
	r  *bufio.Reader
}

func newPipeTransport(w, r *os.File) *pipeTransport {
	return &pipeTransport{w: w, rf: r, r: bufio.NewReaderSize(r, 64<<10)}
}

func (p *pipeTransport) Read(_ context.Context, msg *cdproto.Message) error {
	b, err := p.r.ReadBytes(0)
	if err != nil {
		if errors.Is(err, io.EOF) && len(b) > 0 {
			err = io.ErrUnexpectedEOF
		}
		return err
	}
	*msg = cdproto.Message{}
	return json.Unmarshal(b[:len(b)-1], msg)
}

func (p *pipeTransport) Write(_ context.Context, msg *cdproto.Message) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	if bytes.IndexByte(b, 0) >= 0 {
		return errors.New("a DevTools message holds a NUL byte") // encoding/json escapes it; never happens
	}
	_, err = p.w.Write(append(b, 0))
	return err
}

// Close closes both ends: the browser sees the pipe close, and the read
// loop ends.
func (p *pipeTransport) Close() error {
	werr := p.w.Close()
	rerr := p.rf.Close()
	return errors.Join(werr, rerr)
}

var errClosed = errors.New("the connection to the browser is closed")

func (c *cdpConn) read() {
	var err error
	for {
		msg := new(cdproto.Message)
		if err = c.conn.Read(context.Background(), msg); err != nil {
			break
		}
		switch {
		case msg.Method != "":
			c.events.push(msg)
		case msg.ID != 0:
			c.mu.Lock()
			f := c.wait[msg.ID]
			delete(c.wait, msg.ID)
			c.mu.Unlock()
			if f != nil {
				f(msg)
			}
		}
	}
	c.mu.Lock()
	if c.err == nil {
		c.err = fmt.Errorf("%w (%v)", errClosed, err)
	}
	waiting := c.wait
	c.wait = nil
	c.mu.Unlock()
	for _, f := range waiting {
		f(nil)
	}
	c.events.close()
	close(c.done)
}

// send writes the command method with params to the browser (session "")
// or a tab, and calls answer (if not nil) with the answer, or with nil if
// the connection ends first. It does not wait for the answer.
func (c *cdpConn) send(session target.SessionID, method string, params any, answer func(*cdproto.Message)) error {
	var raw []byte
	if params != nil {
		var err error
		if raw, err = json.Marshal(params); err != nil {
			return fmt.Errorf("%s: %w", method, err)
		}
	}
	c.mu.Lock()
	if c.wait == nil {
		err := c.err
		c.mu.Unlock()
		return err
	}
	c.next++
	id := c.next
	if answer != nil {
		c.wait[id] = answer
	} else {
		c.wait[id] = func(*cdproto.Message) {}
	}
	c.mu.Unlock()
	c.wmu.Lock()
	err := c.conn.Write(context.Background(), &cdproto.Message{ID: id, SessionID: session, Method: cdproto.MethodType(method), Params: raw})
	c.wmu.Unlock()
	if err != nil {
		c.mu.Lock()
		if c.wait != nil {
			delete(c.wait, id)
		}
		c.mu.Unlock()
		return fmt.Errorf("%s: %w", method, err)
	}
	return nil
}

// call sends a command and waits for its answer, decoding the result into
// res (if not nil).
func (c *cdpConn) call(ctx context.Context, session target.SessionID, method string, params, res any) error {
	ch := make(chan *cdproto.Message, 1)
	if err := c.send(session, method, params, func(m *cdproto.Message) { ch <- m }); err != nil {
		return err
	}
	select {
	case <-ctx.Done():
		return fmt.Errorf("%s: %w", method, ctx.Err())
	case m := <-ch:
		switch {
		case m == nil:
			c.mu.Lock()
			err := c.err
			c.mu.Unlock()
			return fmt.Errorf("%s: %w", method, err)
		case m.Error != nil:
			return fmt.Errorf("%s: %s", method, m.Error.Message)
		case res != nil:
			if err := json.Unmarshal(m.Result, res); err != nil {
				return fmt.Errorf("%s: decoding the answer: %w", method, err)
			}
		}
		return nil
	}
}

// close ends the connection; pending calls fail.
func (c *cdpConn) close() {
	c.mu.Lock()
	if c.err == nil {
		c.err = errClosed
	}
	c.mu.Unlock()
	c.conn.Close()
	<-c.done
}

// queue is an unbounded FIFO: push never blocks, so that the goroutine
// reading the browser's messages never waits for a slow consumer.
type queue[T any] struct {
	mu     sync.Mutex
	items  []T
	closed bool
	signal chan struct{}
}

func newQueue[T any]() *queue[T] { return &queue[T]{signal: make(chan struct{}, 1)} }

func (q *queue[T]) push(v T) {
	q.mu.Lock()
	if !q.closed {
		q.items = append(q.items, v)
	}
	q.mu.Unlock()
	select {
	case q.signal <- struct{}{}:
	default:
	}
}

// pop waits for the next item; ok is false once the queue is closed and
// empty.
func (q *queue[T]) pop() (v T, ok bool) {
	return q.next(context.Background(), nil)
}

// next is pop that gives up when ctx is done or stop is closed (a nil stop
// never is).
func (q *queue[T]) next(ctx context.Context, stop <-chan struct{}) (v T, ok bool) {
	for {
		q.mu.Lock()
		if len(q.items) > 0 {
			v = q.items[0]
			var zero T
			q.items[0] = zero
			q.items = q.items[1:]
			q.mu.Unlock()
			return v, true
		}
		if q.closed {
			q.mu.Unlock()
			return v, false
		}
		q.mu.Unlock()
		select {
		case <-q.signal:
		case <-ctx.Done():
			return v, false
		case <-stop:
			return v, false
		}
	}
}

func (q *queue[T]) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	select {
	case q.signal <- struct{}{}:
	default:
	}
}
