// Package guard is the SSH server's connection guard: everything a client
// meets before grotto's own middleware knows who it is. It owns the limits
// that hold per connection and per address, and the defences against what
// the SSH library would otherwise accept as sent:
//
//   - Admit, the server's ConnCallback: the PROXY header from trusted
//     balancers only (proxy.go), the per-address connection cap, the
//     deadline for opening a session (conns.go);
//   - SessionChannel, the handler of "session" channels: requests filtered
//     before the library acts on them, sizes clamped, window-changes
//     coalesced (requests.go), with WindowSizes, the middleware that hands
//     them to the program;
//   - RateLimit and SessionCap, the middleware of the per-address rate of
//     new sessions and the cap on game sessions at once (rates.go), which
//     the web pages' sessions draw on too (Enter, EnterSession).
//
// A Guard is built from its limits (Config) and holds no server state:
// the server wires it (server/chain.go, server.newSSH). What a session
// types is defended apart, by server/input. Every type here is safe for
// concurrent use by the connections it guards.
package guard

import (
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"charm.land/log/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	"charm.land/wish/v2/ratelimiter"
	gossh "golang.org/x/crypto/ssh"

	"github.com/grotto-game/grotto/server/metrics"
)

// Config is what a Guard enforces. A zero limit turns it off, except
// ConnPer10s, which is at least 1.
type Config struct {
	// MaxConnsPerAddr caps the connections one address (an IPv4 address,
	// an IPv6 /64) may hold at once, with or without a session, SSH and
	// web pages together; more are refused with a one-line reason. 0
	// means no cap.
	MaxConnsPerAddr int
	// HandshakeTimeout is the SSH server's own deadline for the
	// handshake; the deadline for a session (SessionOpenTimeout) starts
	// after it until the client's key is accepted.
	HandshakeTimeout time.Duration
	// SessionOpenTimeout closes a connection that has no session running
	// for this long: after its key is accepted, or after its last session
	// ended. 0 means never.
	SessionOpenTimeout time.Duration
	// ConnPer10s is how many new sessions one address may open in 10
	// seconds (a bucket of that size, refilled evenly).
	ConnPer10s int
	// MaxSessions caps the game sessions at once (SessionCap and
	// EnterSession); 0 means no cap.
	MaxSessions int
	// Proxies are the load balancers that must start each connection with
	// a PROXY header (ParseRanges of --proxy-protocol-from); empty turns
	// PROXY protocol off.
	Proxies Ranges
	// Logger hears of refusals, at most once per 10 s for each kind; nil
	// means log.Default().
	Logger *log.Logger
	// Metrics counts connections by result
	// (grotto_connections_total, grotto_connections_open); nil counts
	// nothing.
	Metrics *metrics.Metrics
}

// Guard enforces a Config on an SSH server's connections and sessions.
// Build one with New.
type Guard struct {
	cfg      Config
	log      *log.Logger
	conns    *addrConns  // open connections per address (conns.go)
	rates    *addrRate   // new sessions per address (rates.go)
	sessions *sessionCap // game sessions at once, SSH and browser (rates.go)
}

// New returns a guard that enforces cfg.
func New(cfg Config) *Guard {
	if cfg.Logger == nil {
		cfg.Logger = log.Default()
	}
	return &Guard{cfg: cfg, log: cfg.Logger, conns: newAddrConns(),
		rates: newAddrRate(cfg.ConnPer10s), sessions: newSessionCap(cfg.MaxSessions)}
}

// Install makes srv admit its connections through g (Admit) and handle
// its session channels through g (SessionChannel), as a wish option.
func (g *Guard) Install(srv *ssh.Server) error {
	srv.ConnCallback = g.Admit
	if srv.ChannelHandlers == nil {
		srv.ChannelHandlers = map[string]ssh.ChannelHandler{}
	}
	srv.ChannelHandlers["session"] = g.SessionChannel
	return nil
}

// Proxied reports whether PROXY protocol is on (Config.Proxies).
func (g *Guard) Proxied() bool { return len(g.cfg.Proxies) > 0 }

// RateLimit is the middleware that refuses an SSH session beyond its
// address's rate (Config.ConnPer10s) with wish's "rate limit exceeded"
// line.
func (g *Guard) RateLimit() wish.Middleware { return g.rates.middleware() }

// SessionCap is the middleware that refuses an SSH session beyond
// Config.MaxSessions at once with FullLine.
func (g *Guard) SessionCap() wish.Middleware { return g.sessions.middleware() }

// EnterSession counts one more game session that did not come through
// SessionCap (a browser's); false, and not counted, when the cap is
// reached. Each true is followed by one LeaveSession.
func (g *Guard) EnterSession() bool { return g.sessions.enter() }

// LeaveSession counts a session of EnterSession's out.
func (g *Guard) LeaveSession() { g.sessions.leave() }

// Sessions returns the game sessions counted now.
func (g *Guard) Sessions() int { return int(g.sessions.open.Load()) }

// FullLine is what a session refused by the session cap reads: "grotto is
// full (3000 sessions); please try again later."
func (g *Guard) FullLine() string { return g.sessions.fullLine() }

// Conns returns the connections counted now for addr as the cap counts
// them (an IPv4 address; an IPv6 /64 as "prefix/64"), SSH and web.
func (g *Guard) Conns(addr string) int { return g.conns.open(addr) }

// Enter counts a connection that did not come through Admit (a web
// page's, addr the browser's address) under the per-address cap and draws
// one new session from the address's rate, as an SSH session does. It
// returns the function that releases the connection's place (safe to call
// more than once), or an error whose text is what the client is told: the
// cap's line (TooManyLine) or ratelimiter.ErrRateLimitExceeded.
func (g *Guard) Enter(addr net.Addr) (func(), error) {
	key := AddrKey(addr)
	max := g.cfg.MaxConnsPerAddr
	if !g.conns.acquire(key, max) {
		g.count(metrics.ConnTooMany)
		g.conns.refused.Do(func() {
			g.log.Warn("refused connections beyond the per-address cap", "addr", key, "cap", max, "web", true)
		})
		return nil, errors.New(TooManyLine(max))
	}
	if !g.rates.allow(key) {
		g.conns.release(key)
		return nil, ratelimiter.ErrRateLimitExceeded
	}
	var once sync.Once
	return func() { once.Do(func() { g.conns.release(key) }) }, nil
}

// count adds one connection of result to the metrics, if any.
func (g *Guard) count(result string) {
	if g.cfg.Metrics != nil {
		g.cfg.Metrics.Connections.WithLabelValues(result).Inc()
	}
}

// opened adds delta to the open connections' gauge, if any.
func (g *Guard) opened(delta float64) {
	if g.cfg.Metrics != nil {
		g.cfg.Metrics.ConnectionsOpen.Add(delta)
	}
}

type ctxKey int

const (
	ctxWindows ctxKey = iota // the *windows of the connection's running session (requests.go)
	ctxConn                  // the *connState of a connection (conns.go)
)

// Authenticated restarts the deadline for a session of ctx's connection
// once the client's key is accepted (the public-key handler calls it): the
// handshake is all but done, and the deadline runs from there rather than
// from the connection's start. A connection Admit did not see is left
// alone.
func Authenticated(ctx ssh.Context) {
	if cs, ok := ctx.Value(ctxConn).(*connState); ok {
		cs.authenticated()
	}
}

// Admit is the server's ConnCallback. With PROXY protocol on (proxy.go) it
// first reads the header a trusted balancer must send, refusing the
// connection without one, so that from here on the connection's address is
// the client's. It refuses a connection beyond the address's cap
// (Config.MaxConnsPerAddr) with a one-line reason sent before the SSH
// version (RFC 4253 section 4.2 lets a server send lines first; OpenSSH
// shows them with -v). Then, with PROXY protocol on, it refuses a
// connection from anywhere else that starts with a header; counting it
// first keeps silent connections under the cap while their first bytes are
// awaited. Last it arms the session deadline (Config.SessionOpenTimeout).
// Each refusal is logged, at most once per 10 s for each kind.
func (g *Guard) Admit(ctx ssh.Context, c net.Conn) net.Conn {
	fromBalancer := g.cfg.Proxies.contains(c.RemoteAddr())
	if fromBalancer {
		pc, err := readProxyHeader(c, true, ProxyHeaderTimeout)
		if err != nil {
			g.count(metrics.ConnBadProxyHeader)
			g.conns.badBalancer.Do(func() {
				g.log.Error("refused a connection from a trusted load balancer (--proxy-protocol-from) without a valid PROXY header",
					"balancer", c.RemoteAddr().String(), "err", err)
			})
			return nil
		}
		c = pc
	}
	key := AddrKey(c.RemoteAddr())
	if !g.conns.acquire(key, g.cfg.MaxConnsPerAddr) {
		g.refuseTooMany(c, key)
		return nil // the library closes it
	}
	if g.Proxied() && !fromBalancer {
		pc, err := readProxyHeader(c, false, ProxyHeaderTimeout)
		if err != nil {
			g.conns.release(key)
			g.count(metrics.ConnBadProxyHeader)
			if errors.Is(err, errUntrustedProxyHeader) {
				g.conns.badHeader.Do(func() {
					g.log.Warn("refused a connection that sent a PROXY header from an address not in --proxy-protocol-from",
						"addr", c.RemoteAddr().String())
				})
			}
			return nil
		}
		c = pc
	}
	return g.track(ctx, c, key)
}

// refuseTooMany tells c, of address key, that the address is at its cap.
func (g *Guard) refuseTooMany(c net.Conn, key string) {
	max := g.cfg.MaxConnsPerAddr
	g.count(metrics.ConnTooMany)
	c.SetWriteDeadline(time.Now().Add(time.Second))
	fmt.Fprintf(c, "%s\r\n", TooManyLine(max))
	g.conns.refused.Do(func() {
		g.log.Warn("refused connections beyond the per-address cap", "addr", key, "cap", max)
	})
}

// track returns c admitted: counted until it closes, with its session
// deadline armed and its connState in ctx.
func (g *Guard) track(ctx ssh.Context, c net.Conn, key string) net.Conn {
	tc := &trackedConn{Conn: c}
	wait := g.cfg.SessionOpenTimeout
	cs := &connState{wait: wait}
	if p, ok := c.(*proxiedConn); ok && p.check {
		g.count(metrics.ConnHealthCheck)
	} else {
		g.count(metrics.ConnAccepted)
	}
	g.opened(1)
	tc.release = func() {
		cs.stop()
		g.conns.release(key)
		g.opened(-1)
	}
	if wait > 0 {
		cs.timer = time.AfterFunc(g.cfg.HandshakeTimeout+wait, func() {
			if cs.expire() {
				g.log.Debug("closed a connection that started no session in time", "addr", key)
				tc.Close()
			}
		})
	}
	ctx.SetValue(ctxConn, cs)
	return tc
}

// SessionChannel handles a "session" channel: the library's own handler,
// reading requests through filter (requests.go). A connection may have
// MaxSessionChannels open and one running (see connState).
func (g *Guard) SessionChannel(srv *ssh.Server, conn *gossh.ServerConn, nc gossh.NewChannel, ctx ssh.Context) {
	cs, _ := ctx.Value(ctxConn).(*connState)
	if cs != nil {
		if !cs.openChannel() {
			nc.Reject(gossh.ResourceShortage, fmt.Sprintf("grotto allows %d sessions on one connection", MaxSessionChannels))
			return
		}
		defer cs.closeChannel()
	}
	f := &filteredChannel{NewChannel: nc, ctx: ctx, win: newWindows(), conn: cs, log: g.log}
	defer f.finish()
	ssh.DefaultSessionHandler(srv, conn, f, ctx)
}
