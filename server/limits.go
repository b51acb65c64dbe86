// The abuse limits of a server and their defaults. The connection guard
// (server/guard) enforces those per connection and per address, and the
// session cap; server/input the typing rate.

package server

import (
	"errors"
	"runtime"
	"time"

	"github.com/grotto-game/grotto/server/guard"
)

// Limits are the abuse limits of a server. The defaults suit a household
// or a LAN party behind one address and stop a flood.
//
// A zero field means its default (DefaultLimits), field by field, except
// where the field says 0 turns the limit off: IdleTimeout, MaxConnsPerAddr
// and SessionOpenTimeout, whose flags document "0 for never" or "0 for no
// cap".
type Limits struct {
	// IdleTimeout ends a session that sent no key for this long (a
	// watcher: nor saw the game it watches move), saving the game and
	// saying goodbye. 0 means none; otherwise it must be at
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
	// times a watcher's CPU (docs/performance.md). A page past it is told why and
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
// cost 1.1 cores (docs/performance.md), so 16 per core keep a tenth of each core.
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

// newGuard builds the connection guard (server/guard) from the limits and
// --proxy-protocol-from. The web pages' connections and play sessions draw
// on its per-address cap and rate and its session cap too (web.Gate,
// webPlayers): a browser is counted with its address's SSH connections.
func (s *Server) newGuard() *guard.Guard {
	lim := s.cfg.Limits
	proxies, _ := guard.ParseRanges(s.cfg.ProxyProtocolFrom) // Validate checked it
	return guard.New(guard.Config{MaxConnsPerAddr: lim.MaxConnsPerAddr, HandshakeTimeout: lim.HandshakeTimeout,
		SessionOpenTimeout: lim.SessionOpenTimeout, ConnPer10s: lim.ConnPer10s, MaxSessions: lim.MaxSessions,
		Proxies: proxies, Logger: s.log, Metrics: s.metrics.Metrics})
}
