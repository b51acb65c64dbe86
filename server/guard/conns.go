// Connections before any session: a cap on how many one address may hold,
// and a deadline for opening a session.
//
// charm.land/ssh keeps an authenticated connection for as long as it is not
// idle for Server.IdleTimeout (server.go, handleConn; conn.go), whether or
// not it ever opens a session, and counts nothing per address: grotto's
// session cap and per-address rate (middleware) only see sessions. Admit
// runs on every accepted TCP connection before the handshake, after the
// PROXY header if any (proxy.go): the address it counts is the client's.

package guard

import (
	"fmt"
	"net"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// addrConns counts the open connections of each address.
type addrConns struct {
	mu sync.Mutex
	n  map[string]int
	// refused logs refusals at most once in a while: a flood must not
	// flood the log too. badBalancer and badHeader do the same for the
	// PROXY header refusals (admit).
	refused, badBalancer, badHeader rate.Sometimes
}

func newAddrConns() *addrConns {
	every := 10 * time.Second
	return &addrConns{n: map[string]int{}, refused: rate.Sometimes{Interval: every},
		badBalancer: rate.Sometimes{Interval: every}, badHeader: rate.Sometimes{Interval: every}}
}

// acquire counts one more connection of addr unless it already has max
// (max <= 0: no cap).
func (a *addrConns) acquire(addr string, max int) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if max > 0 && a.n[addr] >= max {
		return false
	}
	a.n[addr]++
	return true
}

func (a *addrConns) release(addr string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.n[addr]--; a.n[addr] <= 0 {
		delete(a.n, addr)
	}
}

// open returns the connections of addr counted now.
func (a *addrConns) open(addr string) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.n[addr]
}

// AddrKey is what the cap counts by: the IP address, or for IPv6 its /64
// (one household or host gets a whole /64).
func AddrKey(addr net.Addr) string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return addr.String()
	}
	if ip4 := tcp.IP.To4(); ip4 != nil {
		return ip4.String()
	}
	return tcp.IP.Mask(net.CIDRMask(64, 128)).String() + "/64"
}

// TooManyLine is what a connection (or browser WebSocket) beyond the
// per-address cap of max is told.
func TooManyLine(max int) string {
	return fmt.Sprintf("grotto: too many connections from your address (at most %d at once); close some and try again.", max)
}

// trackedConn releases its address's count once, when closed.
type trackedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

// Close closes the connection and releases its count.
func (c *trackedConn) Close() error {
	c.once.Do(c.release)
	return c.Conn.Close()
}

// MaxSessionChannels is how many session channels one connection may have
// open at once (OpenSSH's ControlMaster shares a connection between
// several ssh commands); more are refused with a reason.
const MaxSessionChannels = 4

// connState is what a connection is doing with sessions: how many session
// channels are open, and whether one of them is running (its shell, exec or
// subsystem started, its handler not yet ended). One runs at a time: the
// connection's ssh.Context, where grotto's middleware keeps a session's
// values, is shared by its channels. While none runs, the deadline runs:
// Config.SessionOpenTimeout from the moment the client's key is accepted
// (before that the handshake timeout plus it, from the connection's start),
// then from the end of each session.
type connState struct {
	mu       sync.Mutex
	channels int
	running  bool
	expired  bool // the deadline passed with no session running: closing
	wait     time.Duration
	timer    *time.Timer // nil without a deadline
}

// openChannel reports whether one more session channel may open, and
// counts it.
func (c *connState) openChannel() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.channels >= MaxSessionChannels {
		return false
	}
	c.channels++
	return true
}

// closeChannel counts a session channel closed.
func (c *connState) closeChannel() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.channels--
}

// start reports whether a session may start (none is running) and marks
// it running: the deadline stops.
func (c *connState) start() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.running || c.expired {
		return false
	}
	c.running = true
	if c.timer != nil {
		c.timer.Stop()
	}
	return true
}

// finish marks the running session over: the deadline runs again.
func (c *connState) finish() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.running = false
	if c.timer != nil {
		c.timer.Reset(c.wait)
	}
}

// authenticated restarts the deadline once the client's key is accepted:
// the handshake is all but done, and the deadline for a session runs from
// there rather than from the connection's start.
func (c *connState) authenticated() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.timer != nil && !c.running {
		c.timer.Reset(c.wait)
	}
}

// expire is the deadline's end: it reports whether no session is running,
// and if so marks the connection expired, in the same critical section, so
// that a session cannot start between the check and the close.
func (c *connState) expire() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.running {
		c.expired = true
	}
	return c.expired
}

// stop ends the deadline: the connection is closed.
func (c *connState) stop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.timer != nil {
		c.timer.Stop()
		c.timer = nil
	}
}
