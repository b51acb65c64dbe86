package server

import (
	"context"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"charm.land/ssh"
	"charm.land/wish/v2"
	"golang.org/x/time/rate"
)

// Limits are the abuse limits of a server. The defaults suit a household
// or a LAN party behind one address and stop a flood.
type Limits struct {
	// IdleTimeout ends a session that sent no key for this long, saving
	// the game and saying goodbye. 0 means none.
	IdleTimeout time.Duration
	// HandshakeTimeout closes connections that have not finished the SSH
	// handshake in time.
	HandshakeTimeout time.Duration
	// KeepAlive is how often the server checks that a client is still
	// there; a client that misses 3 in a row is disconnected.
	KeepAlive time.Duration
	// MaxSessions caps concurrent sessions; more are refused with a reason.
	MaxSessions int
	// ConnPer10s is how many new sessions one IP address may open in 10
	// seconds (a bucket of that size, refilled evenly).
	ConnPer10s int
	// InputBytesPerSec caps what one session may type (and paste), in bytes
	// per second, with a burst of 8 times that; a flood is slowed, not fed
	// to the game.
	InputBytesPerSec int
	// MaxConnsPerAddr caps the connections one address (an IPv4 address,
	// an IPv6 /64) may hold at once, with or without a session; more are
	// refused with a one-line reason. 0 means no cap.
	MaxConnsPerAddr int
	// SessionOpenTimeout closes a connection that has no session running
	// for this long: after its key is accepted, or after its last session
	// ended. 0 means never.
	SessionOpenTimeout time.Duration
}

// DefaultLimits returns the limits a server uses unless told otherwise.
func DefaultLimits() Limits {
	return Limits{IdleTimeout: 30 * time.Minute, HandshakeTimeout: 20 * time.Second, KeepAlive: 30 * time.Second,
		MaxSessions: 3000, ConnPer10s: 20, InputBytesPerSec: 4096, MaxConnsPerAddr: 100, SessionOpenTimeout: 30 * time.Second}
}

// capSessions refuses sessions beyond the cap with a one-line reason.
func (s *Server) capSessions(next ssh.Handler) ssh.Handler {
	var open atomic.Int64
	return func(sess ssh.Session) {
		if n := open.Add(1); s.cfg.Limits.MaxSessions > 0 && n > int64(s.cfg.Limits.MaxSessions) {
			open.Add(-1)
			wish.Fatalln(sess, fmt.Sprintf("grotto is full (%d sessions); please try again later.\r", s.cfg.Limits.MaxSessions))
			return
		}
		defer open.Add(-1)
		next(sess)
	}
}

// limitedReader hands on at most a rate of bytes: reading more waits, which
// pushes back on the client through the SSH channel's window.
type limitedReader struct {
	ctx context.Context
	r   io.Reader
	lim *rate.Limiter
}

func newLimitedReader(ctx context.Context, r io.Reader, perSec int) io.Reader {
	if perSec <= 0 {
		return r
	}
	return &limitedReader{ctx: ctx, r: r, lim: rate.NewLimiter(rate.Limit(perSec), 8*perSec)}
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if len(p) > l.lim.Burst() {
		p = p[:l.lim.Burst()]
	}
	n, err := l.r.Read(p)
	if n > 0 {
		if werr := l.lim.WaitN(l.ctx, n); werr != nil && err == nil {
			err = io.EOF // the session is ending
		}
	}
	return n, err
}
