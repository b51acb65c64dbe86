// The abuse limits of a server, their defaults, and the middleware that
// enforces the session-level ones: the per-address session rate, the
// session cap, and the typing rate. Connection-level limits are in
// conns.go, request-level ones in requests.go.
package server

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"charm.land/ssh"
	"charm.land/wish/v2"
	"charm.land/wish/v2/ratelimiter"
	"golang.org/x/time/rate"
)

// Limits are the abuse limits of a server. The defaults suit a household
// or a LAN party behind one address and stop a flood.
//
// A zero field means its default (DefaultLimits), field by field, except
// where the field says 0 turns the limit off: IdleTimeout, MaxConnsPerAddr
// and SessionOpenTimeout, whose flags document "0 for never" or "0 for no
// cap".
type Limits struct {
	// IdleTimeout ends a session that sent no key for this long, saving
	// the game and saying goodbye. 0 means none; otherwise it must be at
	// least MinIdleTimeout.
	IdleTimeout time.Duration
	// HandshakeTimeout closes connections that have not finished the SSH
	// handshake in time. 0 means the default.
	HandshakeTimeout time.Duration
	// KeepAlive is how often the server checks that a client is still
	// there; a client that misses 3 in a row is disconnected. 0 means the
	// default.
	KeepAlive time.Duration
	// MaxSessions caps concurrent game sessions (those with a terminal;
	// commands such as `who` end at once and are not counted); more are
	// refused with a reason. 0 means the default.
	MaxSessions int
	// MaxWatchers is the watchers' budget: the most watch pages open at
	// once in browsers (--max-watchers). Each holds about
	// 0.6 MB of heap at 80x24 and at most 1.5 MB (its program is never
	// larger than tui.MaxWidth x tui.MaxHeight, whatever size it claims;
	// docs/performance.md). A page past it is told why and refused. 0
	// means MaxSessions (watchers).
	MaxWatchers int
	// MaxReplays is the replays' budget: the most replay pages open at
	// once in browsers (--max-replays), apart from the watchers'. Each
	// runs a replay program of its own (decode, simulate, draw), 10 to 15
	// times a watcher's CPU (issue 20). A page past it is told why and
	// refused. 0 means DefaultReplaysPerCPU times runtime.NumCPU()
	// (replays).
	MaxReplays int
	// ConnPer10s is how many new sessions one IP address may open in 10
	// seconds (a bucket of that size, refilled evenly). 0 means the
	// default.
	ConnPer10s int
	// InputBytesPerSec caps what one session may type (and paste), in bytes
	// per second, with a burst of 8 times that; a flood is slowed, not fed
	// to the game. 0 means the default.
	InputBytesPerSec int
	// MaxConnsPerAddr caps the connections one address (an IPv4 address,
	// an IPv6 /64) may hold at once, with or without a session; more are
	// refused with a one-line reason. 0 means no cap.
	MaxConnsPerAddr int
	// SessionOpenTimeout closes a connection that has no session running
	// for this long: after its key is accepted, or after its last session
	// ended. 0 means never.
	SessionOpenTimeout time.Duration
	// MaxHTTPConns caps the connections the web pages (--http) hold at
	// once, whatever their address; more are answered 503 and closed. 0
	// means httpConnBudget of the process's open-file limit, so that the
	// web port can never take the files SSH needs.
	MaxHTTPConns int
}

// watchers returns the watchers' budget: MaxWatchers, or MaxSessions when
// it is 0.
func (l Limits) watchers() int {
	if l.MaxWatchers > 0 {
		return l.MaxWatchers
	}
	return l.MaxSessions
}

// DefaultReplaysPerCPU is how many replay pages the replays' budget
// (Limits.MaxReplays, 0) allows per core: 200 playing pages at 120x50
// cost 1.1 cores (issue 20), so 16 per core keep a tenth of each core.
const DefaultReplaysPerCPU = 16

// replays returns the replays' budget: MaxReplays, or
// DefaultReplaysPerCPU per core (runtime.NumCPU) when it is 0.
func (l Limits) replays() int {
	if l.MaxReplays > 0 {
		return l.MaxReplays
	}
	return DefaultReplaysPerCPU * runtime.NumCPU()
}

// MinIdleTimeout is the shortest idle timeout a host may set (other than 0,
// never): a shorter one would end every session at once.
const MinIdleTimeout = time.Second

// DefaultLimits returns the limits a server uses unless told otherwise.
func DefaultLimits() Limits {
	return Limits{IdleTimeout: 30 * time.Minute, HandshakeTimeout: 20 * time.Second, KeepAlive: 30 * time.Second,
		MaxSessions: 3000, ConnPer10s: 20, InputBytesPerSec: 4096, MaxConnsPerAddr: 100, SessionOpenTimeout: 30 * time.Second}
}

// withDefaults returns l with each zero field that has a default set to
// its DefaultLimits value. IdleTimeout, MaxConnsPerAddr and
// SessionOpenTimeout keep 0, which turns them off.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	orDefault := func(p *int, def int) {
		if *p == 0 {
			*p = def
		}
	}
	orDefaultDuration := func(p *time.Duration, def time.Duration) {
		if *p == 0 {
			*p = def
		}
	}
	orDefaultDuration(&l.HandshakeTimeout, d.HandshakeTimeout)
	orDefaultDuration(&l.KeepAlive, d.KeepAlive)
	orDefault(&l.MaxSessions, d.MaxSessions)
	orDefault(&l.ConnPer10s, d.ConnPer10s)
	orDefault(&l.InputBytesPerSec, d.InputBytesPerSec)
	return l
}

// validate says which limit is out of its range, naming its flag in a
// *SettingError: the caps and rates must be at least 1, the timeouts and
// the per-address cap not negative (0 turns them off), a non-zero idle
// timeout at least MinIdleTimeout. The handshake timeout and keepalive
// interval (no flag sets them; a plain error) must be positive.
func (l Limits) validate() error {
	for _, c := range []struct {
		flag string
		n    int
	}{{"--max-sessions", l.MaxSessions}, {"--conn-rate", l.ConnPer10s}, {"--input-rate", l.InputBytesPerSec}} {
		if c.n < 1 {
			return badSetting(c.flag, "must be at least 1, not %d", c.n)
		}
	}
	if l.MaxWatchers < 0 {
		return badSetting("--max-watchers", "must not be negative (0 means as many as --max-sessions), not %d", l.MaxWatchers)
	}
	if l.MaxReplays < 0 {
		return badSetting("--max-replays", "must not be negative (0 means 16 per core), not %d", l.MaxReplays)
	}
	if l.MaxHTTPConns < 0 {
		return badSetting("--http-max-conns", "must not be negative (0 sets it from the open-file limit), not %d", l.MaxHTTPConns)
	}
	if l.MaxConnsPerAddr < 0 {
		return badSetting("--max-conns-per-addr", "must not be negative (0 turns it off), not %d", l.MaxConnsPerAddr)
	}
	for _, c := range []struct {
		flag string
		d    time.Duration
	}{{"--idle-timeout", l.IdleTimeout}, {"--session-open-timeout", l.SessionOpenTimeout}} {
		if c.d < 0 {
			return badSetting(c.flag, "must not be negative (0 turns it off), not %v", c.d)
		}
	}
	if l.IdleTimeout > 0 && l.IdleTimeout < MinIdleTimeout {
		return badSetting("--idle-timeout", "must be at least %v (or 0 for never), not %v", MinIdleTimeout, l.IdleTimeout)
	}
	if l.HandshakeTimeout <= 0 || l.KeepAlive <= 0 {
		return errors.New("the handshake timeout and the keepalive interval must be positive")
	}
	return nil
}

// addrRate is the per-address rate of new sessions (Limits.ConnPer10s):
// SSH sessions (its middleware) and browser WebSockets (webGate, web.go)
// of one address draw on one bucket of perTenSeconds, refilled evenly over
// 10 seconds. Addresses are counted as the connection cap counts them
// (addrKey: an IPv6 /64 is one address). It remembers up to
// maxRateAddrs addresses, forgetting first those whose bucket is full
// again (no different from a new one).
type addrRate struct {
	perTenSeconds int
	mu            sync.Mutex
	buckets       map[string]*rate.Limiter
}

// maxRateAddrs is how many addresses an addrRate remembers (as wish's
// ratelimiter, which it replaces, did).
const maxRateAddrs = 10000

func newAddrRate(perTenSeconds int) *addrRate {
	return &addrRate{perTenSeconds: max(1, perTenSeconds), buckets: map[string]*rate.Limiter{}}
}

// allow takes one of key's tokens; false when it has none left.
func (a *addrRate) allow(key string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	b, ok := a.buckets[key]
	if !ok {
		if len(a.buckets) >= maxRateAddrs {
			a.forget()
		}
		b = rate.NewLimiter(rate.Limit(float64(a.perTenSeconds)/10), a.perTenSeconds)
		a.buckets[key] = b
	}
	return b.Allow()
}

// forget drops the addresses whose bucket is full, or one at random if
// none is (a flood from many addresses).
func (a *addrRate) forget() {
	now := time.Now()
	for k, b := range a.buckets {
		if b.TokensAt(now) >= float64(a.perTenSeconds) {
			delete(a.buckets, k)
		}
	}
	for k := range a.buckets {
		if len(a.buckets) < maxRateAddrs {
			break
		}
		delete(a.buckets, k)
	}
}

// Allow implements wish's ratelimiter.RateLimiter for SSH sessions:
// ratelimiter.ErrRateLimitExceeded ("rate limit exceeded, please try
// again later") beyond the rate.
func (a *addrRate) Allow(sess ssh.Session) error {
	if !a.allow(addrKey(sess.RemoteAddr())) {
		return ratelimiter.ErrRateLimitExceeded
	}
	return nil
}

// middleware refuses an SSH session beyond the rate with wish's "rate
// limit exceeded" line.
func (a *addrRate) middleware() wish.Middleware { return ratelimiter.Middleware(a) }

// capSessions refuses sessions beyond limit at once with a one-line reason
// naming the limit ("grotto is full (1 session)"); limit < 1 means no cap.
func capSessions(limit int) wish.Middleware { return newSessionCap(limit).middleware() }

// sessionCap counts a server's game sessions, SSH and browser alike
// (Limits.MaxSessions).
type sessionCap struct {
	limit int // < 1: no cap
	open  atomic.Int64
}

func newSessionCap(limit int) *sessionCap { return &sessionCap{limit: limit} }

// enter counts one more session in; false (and not counted) when the cap
// is reached.
func (c *sessionCap) enter() bool {
	if n := c.open.Add(1); c.limit > 0 && n > int64(c.limit) {
		c.open.Add(-1)
		return false
	}
	return true
}

// leave counts a session out.
func (c *sessionCap) leave() { c.open.Add(-1) }

// fullLine is what a session refused by the cap reads.
func (c *sessionCap) fullLine() string {
	return fmt.Sprintf("grotto is full (%s); please try again later.", sessions(c.limit))
}

// middleware refuses SSH sessions beyond the cap with fullLine.
func (c *sessionCap) middleware() wish.Middleware {
	return func(next ssh.Handler) ssh.Handler {
		return func(sess ssh.Session) {
			if !c.enter() {
				wish.Fatalln(sess, c.fullLine()+"\r")
				return
			}
			defer c.leave()
			next(sess)
		}
	}
}

// sessions says n sessions in English: "1 session", "3 sessions".
func sessions(n int) string {
	if n == 1 {
		return "1 session"
	}
	return fmt.Sprintf("%d sessions", n)
}
