package web

// This file: the limits of every connection to the web pages, so that no
// client, slow or many, holds what the SSH side needs.
//
//   - At accept (limitListener): at most Config.MaxConns connections at
//     once, whatever their address; past it a newcomer takes the place of
//     the connection that has waited longest with no request under way
//     (kept alive, or its request not yet arrived: waitingConns), and is
//     answered 503, Busy, only when every place has a request or a page
//     under way; and each
//     connection of a peer that is not a trusted proxy is one of its
//     address's under Config.Gate (--max-conns-per-addr, --conn-rate,
//     counted with its SSH connections), or answered 429 with the Gate's
//     sentence (a WebSocket: closed at once with 1013 and it, refuse). A refusal waits up to refuseWait for the request's head,
//     so that the client reads the answer as the one to its request (an
//     answer before the request is an error to Go's http.Transport, and
//     closing on an unread request resets the connection), then answers
//     and closes; at most maxRefusing wait at once, and any more are
//     closed at once: refusals hold few file descriptors, and briefly. A
//     trusted proxy's connections carry many browsers: they are counted by
//     X-Forwarded-For at each WebSocket instead (enter).
//   - For each request (httpServer, noBody): Config.ReadTimeout for its
//     headers and for the whole request, MaxHeaderBytes of headers, no
//     body at all (413, NoBody; no route takes one), and
//     Config.PageWriteTimeout for the answer. net/http clears both
//     deadlines when a handler hijacks the connection (net/http
//     server.go, hijackLocked), as coder/websocket's Accept does: a
//     WebSocket has its own per-write timeout (bridge.go) and no read
//     deadline.

import (
	"container/list"
	"errors"
	"fmt"
	"io"
	stdlog "log"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"
)

// httpServer returns the http.Server of the web pages, with the
// per-request limits.
func (s *Server) httpServer() *http.Server {
	return &http.Server{Handler: s.Handler(), ReadHeaderTimeout: s.cfg.ReadTimeout, ReadTimeout: s.cfg.ReadTimeout,
		WriteTimeout: s.cfg.PageWriteTimeout, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: MaxHeaderBytes,
		ConnState: s.waiting.track,
		ErrorLog:  stdlog.New(&errorLog{s: s, accept: rate.Sometimes{Interval: 10 * time.Second}}, "", 0)}
}

// noBody answers a request that has a body (a Content-Length other than
// 0, or a Transfer-Encoding) 413 with NoBody, and closes its connection
// without reading the body: net/http would otherwise read up to 256 KB of
// it after the handler, to reuse the connection, for as long as the
// client takes.
func (s *Server) noBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength == 0 && len(r.TransferEncoding) == 0 {
			next.ServeHTTP(w, r)
			return
		}
		s.counted(ConnRefusedBody)
		conn, _, err := http.NewResponseController(w).Hijack()
		if err != nil { // not HTTP/1 (a test's recorder): say it and let net/http close
			w.Header().Set("Connection", "close")
			http.Error(w, NoBody, http.StatusRequestEntityTooLarge)
			return
		}
		answer(conn, http.StatusRequestEntityTooLarge, NoBody)
	})
}

// answer writes a whole HTTP/1.1 answer of status and line (a sentence)
// on c, as the last one, and closes c. The write cannot wait long: a new
// or idle connection's send buffer is empty.
func answer(c net.Conn, status int, line string) {
	c.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
	fmt.Fprintf(c, "HTTP/1.1 %d %s\r\nContent-Type: text/plain; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s\n",
		status, http.StatusText(status), len(line)+1, line)
	c.Close()
}

// errorLog takes net/http's error log into the web server's: an accept
// that fails (too many open files: the process's limit is reached
// elsewhere; net/http retries, backing off up to a second) is said at most
// once per 10 s; anything else as it comes.
type errorLog struct {
	s      *Server
	accept rate.Sometimes
}

func (e *errorLog) Write(p []byte) (int, error) {
	line := strings.TrimSpace(string(p))
	if strings.HasPrefix(line, "http: Accept error") {
		e.accept.Do(func() {
			e.s.log.Error("web: new connections cannot be accepted; net/http keeps retrying (said at most once per 10 s)", "err", line)
		})
		return len(p), nil
	}
	e.s.log.Warn("web: "+line, "net/http", true)
	return len(p), nil
}

// What becomes of a web connection (Config.Counted).
const (
	ConnAdmitted       = "accepted"              // admitted within every limit
	ConnTookWaiting    = "accepted_took_waiting" // admitted at MaxConns in the place of one that waited longest (waitingConns)
	ConnRefusedBusy    = "refused_busy"          // refused: MaxConns held, each with a request or a page under way (503)
	ConnRefusedAddress = "refused_address"       // refused by Config.Gate: its address's cap or rate (429, or 1013 for a WebSocket)
	ConnRefusedBody    = "refused_body"          // a request refused for its body (413), its connection closed
)

// counted tells Config.Counted result, if set.
func (s *Server) counted(result string) {
	if s.cfg.Counted != nil {
		s.cfg.Counted(result)
	}
}

// How refusals are answered (limitListener.refuse).
const (
	// refuseWait is the longest a refused connection is kept waiting for
	// its request's head before it is answered and closed.
	refuseWait = time.Second
	// maxRefusing is how many refused connections may wait for their
	// request at once; beyond, a refused connection is closed unanswered.
	maxRefusing = 64
)

// limitListener admits connections to the web pages (this file's first
// comment). Make it with newLimitListener.
type limitListener struct {
	net.Listener
	s        *Server
	open     atomic.Int64  // connections held now
	refusing chan struct{} // one token per refusal waiting for its request
	busy     rate.Sometimes
}

func newLimitListener(ln net.Listener, s *Server) *limitListener {
	return &limitListener{Listener: ln, s: s, refusing: make(chan struct{}, maxRefusing), busy: rate.Sometimes{Interval: 10 * time.Second}}
}

// refuse answers c status and line once its request's head has come (or
// refuseWait has passed), and closes it; at once and unanswered when
// maxRefusing refusals are waiting already. The answer is net/http's, on a
// server of this one connection that reads one request within refuseWait
// and keeps nothing alive: a WebSocket's upgrade is accepted only to be
// closed with status 1013 and line, which the page shows (a browser keeps
// an HTTP refusal of a WebSocket from the page's script); any other
// request gets status and line as plain text.
func (l *limitListener) refuse(c net.Conn, status int, line string) {
	select {
	case l.refusing <- struct{}{}:
	default:
		c.Close()
		return
	}
	go func() {
		defer func() { <-l.refusing }()
		one := &oneConn{Conn: c, closed: make(chan struct{})}
		srv := &http.Server{ReadHeaderTimeout: refuseWait, ReadTimeout: refuseWait, WriteTimeout: refuseWait, MaxHeaderBytes: 4 << 10,
			ErrorLog: stdlog.New(io.Discard, "", 0),
			Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Header.Get("Upgrade") != "" && strings.HasSuffix(r.URL.Path, "/ws") {
					refuse(w, r, errors.New(line))
					return
				}
				w.Header().Set("Connection", "close")
				w.Header().Set("X-Content-Type-Options", "nosniff")
				http.Error(w, line, status)
			})}
		srv.SetKeepAlivesEnabled(false)
		srv.Serve(&oneListener{conn: one})
	}()
}

// oneListener is a net.Listener of one connection, for refuse: Accept
// returns it, then waits until it is closed and says the listener is.
type oneListener struct {
	conn  *oneConn
	taken bool
}

func (o *oneListener) Accept() (net.Conn, error) {
	if !o.taken {
		o.taken = true
		return o.conn, nil
	}
	<-o.conn.closed
	return nil, net.ErrClosed
}
func (o *oneListener) Close() error   { return nil }
func (o *oneListener) Addr() net.Addr { return o.conn.LocalAddr() }

// oneConn is oneListener's connection: its Close, by net/http or by a
// WebSocket that took it over, ends the listener's wait.
type oneConn struct {
	net.Conn
	once   sync.Once
	closed chan struct{}
}

func (c *oneConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return c.Conn.Close()
}

// Accept returns the next connection admitted, answering and closing the
// ones refused on the way.
func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if ac := l.admit(c); ac != nil {
			return ac, nil
		}
	}
}

// admit returns c counted (its Close gives its places back), or nil when
// it was refused (answered and closed).
func (l *limitListener) admit(c net.Conn) net.Conn {
	leave := func() {}
	if gate := l.s.cfg.Gate; gate != nil && !l.s.fromProxy(c.RemoteAddr()) {
		var err error
		if leave, err = gate.Enter(c.RemoteAddr()); err != nil {
			l.s.counted(ConnRefusedAddress)
			l.refuse(c, http.StatusTooManyRequests, err.Error())
			return nil
		}
	}
	result := ConnAdmitted
	if n := l.open.Add(1); n > int64(l.s.cfg.MaxConns) {
		result = ConnTookWaiting
		if !l.s.waiting.evict() {
			l.open.Add(-1)
			leave()
			l.s.counted(ConnRefusedBusy)
			l.busy.Do(func() {
				l.s.log.Warn("web: refused connections beyond the most the web pages may hold at once", "max", l.s.cfg.MaxConns)
			})
			l.refuse(c, http.StatusServiceUnavailable, Busy)
			return nil
		}
	}
	l.s.counted(result)
	return &limitedConn{Conn: c, release: func() { leave(); l.open.Add(-1) }}
}

// fromProxy says whether addr, a connection's peer, is one of
// Config.TrustedProxies.
func (s *Server) fromProxy(addr net.Addr) bool {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return false
	}
	a, ok := netip.AddrFromSlice(tcp.IP)
	return ok && s.trusted(a)
}

// waitingConns are the web connections that hold a place with no request
// under way: kept alive between requests (http.StateIdle) or not yet sent a
// byte (http.StateNew), oldest first. When Config.MaxConns are held, a new
// connection takes the place of the one that has waited longest (closed
// for it: a browser opens another when it next needs one) instead of being
// refused, so that connections kept idle, or opened and left silent for
// ReadTimeout at a time, cannot shut visitors out; only requests under way
// are refused a place. Its zero value is ready; safe for concurrent use.
type waitingConns struct {
	mu    sync.Mutex
	order list.List // of net.Conn, the longest waiting first
	at    map[net.Conn]*list.Element
}

// track is the http.Server's ConnState: c waits in the states above, and
// not in the others (active, hijacked by a WebSocket, closed).
func (w *waitingConns) track(c net.Conn, state http.ConnState) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.at == nil {
		w.at = map[net.Conn]*list.Element{}
	}
	if e, ok := w.at[c]; ok {
		w.order.Remove(e)
		delete(w.at, c)
	}
	if state == http.StateNew || state == http.StateIdle {
		w.at[c] = w.order.PushBack(c)
	}
}

// evict closes the connection that has waited longest, which gives its
// place back (limitedConn), and reports whether there was one.
func (w *waitingConns) evict() bool {
	w.mu.Lock()
	e := w.order.Front()
	if e == nil {
		w.mu.Unlock()
		return false
	}
	c := w.order.Remove(e).(net.Conn)
	delete(w.at, c)
	w.mu.Unlock()
	c.Close()
	return true
}

// limitedConn gives its places back once, when closed.
type limitedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

// Close closes the connection and gives its places back.
func (c *limitedConn) Close() error {
	c.once.Do(c.release)
	return c.Conn.Close()
}

// CloseWrite half-closes a TCP connection, as net/http does before closing
// one whose request it did not read to the end (its closeWriteAndWait).
func (c *limitedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}
