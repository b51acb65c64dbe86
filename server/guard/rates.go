// The session-level limits of the guard: the per-address rate of new
// sessions and the cap on game sessions at once, as SSH middleware and as
// calls for the web pages' sessions.

package guard

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"charm.land/ssh"
	"charm.land/wish/v2"
	"charm.land/wish/v2/ratelimiter"
	"golang.org/x/time/rate"
)

// addrRate is the per-address rate of new sessions (Config.ConnPer10s):
// SSH sessions (its middleware) and browser WebSockets (Guard.Enter)
// of one address draw on one bucket of perTenSeconds, refilled evenly over
// 10 seconds. Addresses are counted as the connection cap counts them
// (AddrKey: an IPv6 /64 is one address). It remembers up to
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
	if !a.allow(AddrKey(sess.RemoteAddr())) {
		return ratelimiter.ErrRateLimitExceeded
	}
	return nil
}

// middleware refuses an SSH session beyond the rate with wish's "rate
// limit exceeded" line.
func (a *addrRate) middleware() wish.Middleware { return ratelimiter.Middleware(a) }

// sessionCap counts a server's game sessions, SSH and browser alike
// (Config.MaxSessions).
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
