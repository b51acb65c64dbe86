package server

// This file: the server's side of its Prometheus metrics (server/metrics):
// what it reads at scrape time, each session's key→frame clock on its
// output, and the HTTP server of --metrics, started and stopped with the
// server.

import (
	"context"
	"errors"
	"fmt"
	"io"
	stdlog "log"
	"net"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"charm.land/log/v2"
	"charm.land/ssh"
	"golang.org/x/net/netutil"
	"golang.org/x/time/rate"

	"github.com/grotto-game/grotto/server/lobby"
	"github.com/grotto-game/grotto/server/metrics"
	"github.com/grotto-game/grotto/server/web"
	"github.com/grotto-game/grotto/store"
)

// Timeouts of the metrics HTTP server (net/http.Server): a scrape is one
// small GET; a client that dawdles is cut off.
const (
	metricsReadTimeout  = 10 * time.Second
	metricsWriteTimeout = 30 * time.Second
	metricsIdleTimeout  = 60 * time.Second
	// metricsMaxConns is the most connections the metrics port holds at
	// once (a scraper needs one); more wait in the kernel's listen queue,
	// which costs the process no open file (netutil.LimitListener).
	metricsMaxConns = 16
)

// connCount counts a server's open connections (http.Server.ConnState):
// now, and the most at once. Its zero value is ready.
type connCount struct{ now, most atomic.Int64 }

func (c *connCount) track(_ net.Conn, state http.ConnState) {
	switch state {
	case http.StateNew:
		n := c.now.Add(1)
		for m := c.most.Load(); n > m && !c.most.CompareAndSwap(m, n); m = c.most.Load() {
		}
	case http.StateHijacked, http.StateClosed:
		c.now.Add(-1)
	}
}

// httpErrorLog takes a net/http server's error log into the server's: a
// failed accept (too many open files: the process's limit is reached
// elsewhere; net/http retries, backing off up to a second) is said at most
// once per 10 s, anything else as a warning.
type httpErrorLog struct {
	s      *Server
	what   string // whose log: "metrics"
	accept rate.Sometimes
}

func (e *httpErrorLog) Write(p []byte) (int, error) {
	line := strings.TrimSpace(string(p))
	if strings.HasPrefix(line, "http: Accept error") {
		e.accept.Do(func() {
			e.s.log.Error(e.what+": new connections cannot be accepted; net/http keeps retrying (said at most once per 10 s)", "err", line)
		})
		return len(p), nil
	}
	e.s.log.Warn(e.what+": "+line, "net/http", true)
	return len(p), nil
}

// newMetrics makes the server's metrics, reading the live sessions and the
// lobby's dropped frames at scrape time, and has db report its journal
// commits when it can (store.Observable).
func (s *Server) newMetrics(mem *lobby.Memory, db Database) {
	src := metrics.Sources{Sessions: s.sessionCounts, DroppedWatchFrames: mem.DroppedFrames,
		LeaseRenewFailures: s.place.leases.renewFailures.Load, LeasesLost: s.place.leases.lost.Load,
		NodeChannelFailures: func() uint64 {
			if s.place.nodes == nil {
				return 0
			}
			return s.place.nodes.failures.Load()
		},
		Ready: func() bool { return s.readiness() == nil }, Unsaved: s.ends.unsaved.Len,
		EventsPublished: s.feed.hub.Published, EventFollowersCut: s.feed.hub.Cut}
	if h := s.feed.hook; h != nil { // --events-webhook (feed.go)
		src.WebhookDropped = func() uint64 { return h.Dropped() + h.Rejected() }
		src.WebhookFailures, src.WebhookQueued = h.Failures, h.Queued
	}
	s.metrics.Metrics = metrics.New(src)
	if o, ok := db.(store.Observable); ok {
		o.SetObserver(s.metrics.Metrics)
	}
}

// Metrics returns the server's metrics (tests read them with
// prometheus/testutil).
func (s *Server) Metrics() *metrics.Metrics { return s.metrics.Metrics }

// sessionCounts counts the live sessions by kind: a key's slot played in
// a browser is browser, another player slot at a depth is playing, each
// watcher of a game is a session watching, and every other slot (title,
// name or take-over screen) is on the title.
func (s *Server) sessionCounts() metrics.Sessions {
	var n metrics.Sessions
	total := s.place.live.Len()
	for _, g := range s.place.live.Games() {
		if s.web.browsers.playing(g.Key) {
			n.Browser++
		} else if g.Depth > 0 {
			n.Playing++
		}
		n.Watching += g.Watchers
	}
	n.Title = max(total-n.Playing-n.Watching-n.Browser, 0) // the two reads are not one moment
	return n
}

// listenMetrics binds the --metrics address, if one is set.
func (s *Server) listenMetrics() error {
	if s.cfg.Metrics == "" {
		return nil
	}
	ln, err := s.bind(BindMetrics, s.cfg.Metrics)
	if err != nil {
		return fmt.Errorf("listen %s (--metrics): %w", s.cfg.Metrics, err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", s.metrics.Handler())
	web.HealthRoutes(mux, s.readiness) // health.go
	s.metrics.ln = netutil.LimitListener(ln, metricsMaxConns)
	s.metrics.http = &http.Server{Handler: mux, ReadHeaderTimeout: metricsReadTimeout, ReadTimeout: metricsReadTimeout,
		WriteTimeout: metricsWriteTimeout, IdleTimeout: metricsIdleTimeout, MaxHeaderBytes: 16 << 10,
		ConnState: s.metrics.conns.track, ErrorLog: stdlog.New(&httpErrorLog{s: s, what: "metrics", accept: rate.Sometimes{Interval: 10 * time.Second}}, "", 0)}
	return nil
}

// MetricsAddr returns the address the metrics are served on, nil without
// --metrics (or before Listen).
func (s *Server) MetricsAddr() net.Addr {
	if s.metrics.ln == nil {
		return nil
	}
	return s.metrics.ln.Addr()
}

// serveMetrics serves the metrics until stopMetrics.
func (s *Server) serveMetrics() {
	if s.metrics.http == nil {
		return
	}
	s.log.Info("serving Prometheus metrics", "addr", "http://"+s.metrics.ln.Addr().String()+"/metrics")
	if err := s.metrics.http.Serve(s.metrics.ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		s.log.Error("the metrics server stopped", "err", err)
	}
}

// stopMetrics stops serving the metrics, letting a scrape in flight finish
// until ctx ends.
func (s *Server) stopMetrics(ctx context.Context) {
	if s.metrics.http != nil {
		if s.metrics.http.Shutdown(ctx) != nil {
			s.metrics.http.Close()
		}
		return
	}
	if s.metrics.ln != nil {
		s.metrics.ln.Close()
	}
}

// outputStall is how long one write to a session's terminal may take
// before the session's connection is closed. A client that stays
// connected but stops reading (a frozen terminal, `ssh host | sleep`)
// fills its SSH window; Bubble Tea's renderer then blocks in that write
// holding its lock, the program blocks behind it, and its game can be
// neither saved on an idle check nor taken over by the key's next session
// (found by a breaker: the take-over gave up after 30 s). Closing the
// channel would wait behind the blocked write (x/crypto/ssh's
// channel.writeMu); closing the connection ends the write, the session,
// and the game is saved as on any disconnect. A slow link's biggest frame
// (16 KiB at 56 kbit/s) takes under 3 s.
const outputStall = 10 * time.Second

// sessionOutput is where a session's program writes, as wish's bubbletea
// middleware chooses it (the session for the emulated PTY, else the PTY's
// slave side), with each write ending the wait of the key it answers, and
// a write stalled for outputStall closing the connection (logged).
func sessionOutput(sess ssh.Session, clock *metrics.KeyClock, logger *log.Logger) io.Writer {
	stall := func() {
		if c, ok := sess.Context().Value(ssh.ContextKeyConn).(io.Closer); ok {
			logger.Warn("closing a session whose terminal took no output", "for", outputStall)
			c.Close()
		}
	}
	if pty, _, ok := sess.Pty(); ok && !sess.EmulatedPty() && pty.Slave != nil {
		return &frameFile{f: pty.Slave, clock: clock, stall: stall}
	}
	return &frameWriter{w: sess, clock: clock, stall: stall}
}

// frameWriter is a session's output: every write is a frame (Bubble Tea
// writes each in one write) that answers the keys before it.
type frameWriter struct {
	w     io.Writer
	clock *metrics.KeyClock
	stall func()        // called when a write has taken outputStall; nil for none
	after time.Duration // outputStall; tests shorten it
}

func (f *frameWriter) Write(p []byte) (int, error) {
	defer watchStall(f.stall, f.after)()
	n, err := f.w.Write(p)
	f.clock.Frame()
	return n, err
}

// watchStall calls stall if the write it watches has not returned within
// after (outputStall when 0); the function it returns ends the watch.
func watchStall(stall func(), after time.Duration) func() {
	if stall == nil {
		return func() {}
	}
	if after == 0 {
		after = outputStall
	}
	t := time.AfterFunc(after, stall)
	return func() { t.Stop() }
}

// frameFile is frameWriter for a real PTY: still a terminal file
// (term.File: Read, Write, Close, Fd), so Bubble Tea sets its modes as it
// would on the file itself.
type frameFile struct {
	f     *os.File
	clock *metrics.KeyClock
	stall func() // as frameWriter's
}

func (f *frameFile) Read(p []byte) (int, error) { return f.f.Read(p) }
func (f *frameFile) Close() error               { return f.f.Close() }
func (f *frameFile) Fd() uintptr                { return f.f.Fd() }

func (f *frameFile) Write(p []byte) (int, error) {
	defer watchStall(f.stall, 0)()
	n, err := f.f.Write(p)
	f.clock.Frame()
	return n, err
}
