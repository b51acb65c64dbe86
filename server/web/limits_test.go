package web

// The limits of every connection to the web pages (limits.go): a body
// refused, a request or a reader too slow closed, headers too large
// refused, and no more than Config.MaxConns connections at once.

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"charm.land/log/v2"
	"github.com/charmbracelet/x/vt"
	"github.com/coder/websocket"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/frame"
	"github.com/grotto-game/grotto/internal/await"
	"github.com/grotto-game/grotto/store/storetest"

	"github.com/grotto-game/grotto/server/lobby"
)

// serveReal serves a web server of cfg on its own listener (port 0), as
// the server does: Serve, with its http.Server and its listener's limits.
// The site it returns has no httptest server.
func serveReal(t *testing.T, cfg Config) (*site, string) {
	t.Helper()
	db := storetest.TempBolt(t)
	lob := lobby.NewMemory(nil)
	cfg.Scores, cfg.Live = db, memLive{lob}
	if cfg.Logger == nil {
		cfg.Logger = log.New(io.Discard)
	}
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	t.Cleanup(func() {
		srv.Close()
		if err := recv(t, "Serve to return after Close", served); err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return &site{srv: srv, db: db, lobby: lob}, ln.Addr().String()
}

// rawRequest dials addr and sends text as it is.
func rawRequest(t *testing.T, addr, text string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if _, err := io.WriteString(c, text); err != nil {
		t.Fatal(err)
	}
	return c
}

// untilClosed reads c until the server closes it and returns what it
// said; it fails the test if c is still open after waitLong.
func untilClosed(t *testing.T, c net.Conn) string {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(waitLong))
	got, err := io.ReadAll(c)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("the connection was still open after %v; it said %q", waitLong, got)
	}
	return string(got)
}

func TestARequestWithABodyIsRefusedAtOnceAndClosed(t *testing.T) {
	_, addr := serveReal(t, Config{})
	for name, req := range map[string]string{
		"a length and no body sent":  "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n",
		"a chunked body never ended": "GET /watch/1 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab",
		"a POST with half its body":  "POST /play HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc",
	} {
		t.Run(name, func(t *testing.T) {
			said := untilClosed(t, rawRequest(t, addr, req))
			if !strings.HasPrefix(said, "HTTP/1.1 413 ") || !strings.Contains(said, NoBody) {
				t.Errorf("the server said %q, want 413 and %q", said, NoBody)
			}
		})
	}
}

func TestHalfAHeaderIsClosedAfterTheReadTimeout(t *testing.T) {
	_, addr := serveReal(t, Config{ReadTimeout: 200 * time.Millisecond})
	c := rawRequest(t, addr, "GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
	if said := untilClosed(t, c); said != "" && !strings.HasPrefix(said, "HTTP/1.1 408") {
		t.Errorf("a header never finished: %q, want the connection closed", said)
	}
}

func TestHeadersTooLargeAreRefused(t *testing.T) {
	_, addr := serveReal(t, Config{})
	c := rawRequest(t, addr, "GET / HTTP/1.1\r\nHost: x\r\nX-Big: "+strings.Repeat("a", MaxHeaderBytes+8<<10)+"\r\n\r\n")
	if said := untilClosed(t, c); !strings.HasPrefix(said, "HTTP/1.1 431 ") {
		t.Errorf("headers of %d bytes: %.60q, want 431", MaxHeaderBytes+8<<10, said)
	}
}

func TestAPageReaderThatStopsReadingIsClosedAfterTheWriteTimeout(t *testing.T) {
	_, addr := serveReal(t, Config{PageWriteTimeout: 200 * time.Millisecond})
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.(*net.TCPConn).SetReadBuffer(4 << 10)
	// Requests for the largest asset, pipelined and never read: the
	// server's writes fill the socket and stop.
	for range 64 {
		io.WriteString(c, "GET /assets/xterm.js HTTP/1.1\r\nHost: x\r\n\r\n")
	}
	// Once the server drops the connection (with requests it has not
	// read: a reset), a write fails; until then an empty line between
	// requests is taken and ignored.
	if !await.Within(2*waitLong, func() bool {
		c.SetWriteDeadline(time.Now().Add(waitLong))
		_, err := c.Write([]byte("\r\n"))
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			t.Fatalf("a reader that stopped reading was still connected after %v", waitLong)
		}
		return err != nil
	}) {
		t.Fatalf("a reader that stopped reading was still connected after %v", 2*waitLong)
	}
}

// len returns how many connections wait (tests).
func (w *waitingConns) len() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.order.Len()
}

// keptAlive opens a connection to addr, has one page answered on it and
// returns it, kept alive (idle) by the server.
func keptAlive(t *testing.T, addr string) net.Conn {
	t.Helper()
	c := rawRequest(t, addr, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	c.SetReadDeadline(time.Now().Add(waitLong))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("an admitted connection: %d", resp.StatusCode)
	}
	return c
}

// Connections kept alive between requests, or that have sent nothing yet,
// hold no place a request needs: a newcomer takes the place of the one
// that has waited longest, so idlers cannot shut visitors out.
func TestANewVisitorTakesThePlaceOfTheLongestIdleConnection(t *testing.T) {
	s, addr := serveReal(t, Config{MaxConns: 3})
	// The server marks a connection idle just after its answer is sent,
	// which the client may read first: each is seen waiting before the
	// next connects, so "longest" is the order below.
	waiting := func(n int) {
		t.Helper()
		if !await.Within(waitLong, func() bool { return s.srv.waiting.len() == n }) {
			t.Fatalf("%d connections waiting, want %d", s.srv.waiting.len(), n)
		}
	}
	first := keptAlive(t, addr)
	waiting(1)
	silent, err := net.Dial("tcp", addr) // connected, nothing sent
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	waiting(2)
	third := keptAlive(t, addr)
	defer third.Close()
	waiting(3)
	for i := range 2 { // each newcomer answered, the oldest waiter closed for it
		c := keptAlive(t, addr)
		waiting(3)
		defer c.Close()
		gone := []net.Conn{first, silent}[i]
		gone.SetReadDeadline(time.Now().Add(waitLong))
		if n, err := gone.Read(make([]byte, 1)); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("newcomer %d: the connection waiting longest is still open (read %d, %v)", i+1, n, err)
		}
	}
}

func TestNoMoreThanMaxConnsAreHeldAndTheRestAreToldWhy(t *testing.T) {
	s, addr := serveReal(t, Config{MaxConns: 3})
	slot := s.play(t, "bob", 1, 0)
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	var held []*websocket.Conn // pages open: no place to take
	for range 3 {
		c, _, err := websocket.Dial(ctx, fmt.Sprintf("ws://%s/watch/%d/ws?cols=80&rows=24", addr, slot.ID()), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer c.CloseNow()
		held = append(held, c)
	}
	said := untilClosed(t, rawRequest(t, addr, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"))
	if !strings.HasPrefix(said, "HTTP/1.1 503 ") || !strings.Contains(said, Busy) {
		t.Errorf("a fourth connection with at most 3: %q, want 503 and %q", said, Busy)
	}
	held[0].CloseNow()
	// Its place is given back once the server has seen it close.
	var last error // the last refused request's
	if !await.Within(waitLong, func() bool {
		c := rawRequest(t, addr, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
		c.SetReadDeadline(time.Now().Add(waitLong))
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		last = err
		return err == nil && resp.StatusCode == http.StatusOK
	}) {
		t.Fatalf("no place given back once one of 3 connections closed: %v", last)
	}
}

// Hijacking a connection lifts its deadlines (net/http's hijackLocked), as
// coder/websocket's Accept does: a watch page lives on past the read and
// page-write timeouts of the request that opened it.
func TestAWatchPageOutlivesTheTimeoutsOfTheRequestThatOpenedIt(t *testing.T) {
	const timeout = 100 * time.Millisecond
	s, addr := serveReal(t, Config{ReadTimeout: timeout, PageWriteTimeout: timeout})
	slot := s.play(t, "bob", 1, 0)
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	c, _, err := websocket.Dial(ctx, fmt.Sprintf("ws://%s/watch/%d/ws?cols=80&rows=24", addr, slot.ID()), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	emu := vt.NewEmulator(80, 24)
	go io.Copy(io.Discard, emu)
	g := game.New(7, content.Default())
	// Turn after turn, each drawn before the next, until the timeouts
	// have passed several times over.
	for opened := time.Now(); time.Since(opened) < 5*timeout; {
		if _, err := g.Apply(game.Wait()); err != nil {
			t.Fatal(err)
		}
		blob, err := g.Encode()
		if err != nil {
			t.Fatal(err)
		}
		slot.Publish(playing, 1, g.Turn(), "", frame.New(blob, nil))
		want := fmt.Sprintf("Turn: %d ", g.Turn())
		for !strings.Contains(emu.String(), want) {
			typ, data, err := c.Read(ctx)
			if err != nil {
				t.Fatalf("the watch page after %v: %v; the screen:\n%s", time.Since(opened).Round(time.Millisecond), err, emu.String())
			}
			if typ == websocket.MessageBinary {
				emu.Write(data)
			}
		}
	}
}

func TestAcceptErrorsAreLoggedOnceInAWhileNotOncePerRetry(t *testing.T) {
	var out bytes.Buffer
	db := storetest.TempBolt(t)
	srv, err := New(Config{Scores: db, Live: memLive{lobby.NewMemory(nil)}, Logger: log.New(&out)})
	if err != nil {
		t.Fatal(err)
	}
	for range 100 { // as net/http logs each retry
		srv.http.ErrorLog.Printf("http: Accept error: accept tcp 127.0.0.1:8080: accept4: too many open files; retrying in 5ms")
	}
	srv.http.ErrorLog.Printf("http: panic serving 127.0.0.1:1234: boom")
	if n := strings.Count(out.String(), "too many open files"); n != 1 {
		t.Errorf("100 accept errors were logged %d times, want once:\n%s", n, out.String())
	}
	if !strings.Contains(out.String(), "panic serving") {
		t.Errorf("another net/http error was not logged:\n%s", out.String())
	}
}
