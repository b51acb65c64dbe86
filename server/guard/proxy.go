// The PROXY protocol from trusted load balancers only (--proxy-protocol-from):
// behind HAProxy every connection comes from the balancer, and the header it
// sends first names the client, so that the per-address limits, the logs
// and everything else see the player's address, not the balancer's.
//
// The protocol is HAProxy's "The PROXY protocol, versions 1 & 2"
// (https://www.haproxy.org/download/2.8/doc/proxy-protocol.txt): section
// 2.1 the human-readable header (v1), 2.2 the binary header (v2, what
// `send-proxy-v2` sends). github.com/pires/go-proxyproto parses both; this
// file decides whom to believe. The spec's rule (section 2, "the receiver
// MUST be configured to only receive the protocol described in this
// specification and MUST not try to guess whether the protocol header is
// present or not") holds for the balancers: a connection from a trusted
// address without a header is refused. Anyone else is served as before,
// except that a connection of theirs that starts with a header is refused,
// since believing it would let any client choose its own address.

package guard

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"strings"
	"time"

	"github.com/pires/go-proxyproto"
)

// ProxyHeaderTimeout is how long a connection may take to send the bytes
// that show whether it starts with a PROXY header, when PROXY protocol is
// on. A load balancer sends its header at once; an SSH client sends its
// version line at once (RFC 4253 section 4.2). From a trusted address no
// header in time is a refusal; from elsewhere the connection is then
// served as one without a header.
const ProxyHeaderTimeout = 10 * time.Second

// Ranges are parsed address ranges (--proxy-protocol-from,
// --http-trusted-proxy): a single address is a range of its full length.
type Ranges []netip.Prefix

// ParseRanges parses a flag's entries, each a CIDR range or a single IPv4
// or IPv6 address (surrounding spaces are ignored). Its error says what is
// wrong, for the caller to name the flag: an empty entry, one that is
// neither, or a range with bits set past its prefix length ("10.0.0.5/24":
// the host probably meant 10.0.0.0/24, or 10.0.0.5 alone).
func ParseRanges(list []string) (Ranges, error) {
	var t Ranges
	for _, raw := range list {
		e := strings.TrimSpace(raw)
		if e == "" {
			return nil, errors.New("has an empty entry; give CIDR ranges or addresses separated by commas, e.g. 10.0.0.0/24,192.168.1.5")
		}
		if strings.Contains(e, "/") {
			p, err := netip.ParsePrefix(e)
			if err != nil {
				return nil, fmt.Errorf("%q is not a CIDR range such as 10.0.0.0/24 or fd00::/64", e)
			}
			if p.Masked() != p {
				return nil, fmt.Errorf("%q has address bits past /%d: write %s for the range, or %s alone for one address",
					e, p.Bits(), p.Masked(), p.Addr())
			}
			t = append(t, p)
			continue
		}
		a, err := netip.ParseAddr(e)
		if err != nil || a.Zone() != "" {
			return nil, fmt.Errorf("%q is not an IP address or a CIDR range, e.g. 10.0.0.5 or 10.0.0.0/24", e)
		}
		t = append(t, netip.PrefixFrom(a, a.BitLen()))
	}
	return t, nil
}

// contains reports whether addr, a connection's socket address, is in one
// of the trusted ranges (an IPv4 address mapped into IPv6, as a dual-stack
// listener reports it, counts as IPv4).
func (t Ranges) contains(addr net.Addr) bool {
	if len(t) == 0 {
		return false
	}
	ap, err := netip.ParseAddrPort(addr.String())
	if err != nil {
		return false
	}
	ip := ap.Addr().Unmap()
	for _, p := range t {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// Errors of the PROXY header check, logged when a connection is refused.
var (
	// errNoProxyHeader is returned when a connection from a trusted
	// balancer does not start with a PROXY header.
	errNoProxyHeader = errors.New("no PROXY protocol header: is send-proxy-v2 set on the balancer's server lines?")
	// errUntrustedProxyHeader is returned when a connection from an
	// address not in --proxy-protocol-from starts with a PROXY header.
	errUntrustedProxyHeader = errors.New("a PROXY protocol header from an address not in --proxy-protocol-from")
)

// proxiedConn is a connection whose first bytes were read to look for a
// PROXY header: reads come from what was buffered, then from the
// connection; RemoteAddr is the client's address the header named (or the
// socket's, with no header).
type proxiedConn struct {
	net.Conn
	r      *bufio.Reader // nil once drained
	remote net.Addr
	check  bool // the header's command was LOCAL: the balancer's own health check
}

// Read returns the bytes buffered after the header first.
func (c *proxiedConn) Read(b []byte) (int, error) {
	if c.r != nil {
		if c.r.Buffered() > 0 {
			return c.r.Read(b)
		}
		c.r = nil
	}
	return c.Conn.Read(b)
}

// RemoteAddr returns the client's address.
func (c *proxiedConn) RemoteAddr() net.Addr { return c.remote }

// readProxyHeader reads the PROXY header a connection may start with,
// waiting at most timeout for its first bytes, and returns the connection
// to serve, whose RemoteAddr is the header's source address. required says
// the connection comes from a trusted balancer: it must send a header
// (else errNoProxyHeader, or the parser's error for a damaged one). From
// elsewhere a header, whole or damaged, is errUntrustedProxyHeader, and no
// header (or none within timeout) is fine. A header with the LOCAL command
// (a balancer's health check) or without an IP source keeps the socket's
// address. Other errors are the connection's own (it went away).
func readProxyHeader(c net.Conn, required bool, timeout time.Duration) (net.Conn, error) {
	br := bufio.NewReader(c)
	h, err := proxyproto.ReadHeaderTimeout(c, br, timeout)
	noHeader := errors.Is(err, proxyproto.ErrNoProxyProtocol)
	switch {
	case noHeader && !required:
		return &proxiedConn{Conn: c, r: br, remote: c.RemoteAddr()}, nil
	case noHeader:
		return nil, errNoProxyHeader
	case err != nil && isConnError(err):
		return nil, err
	case !required:
		return nil, errUntrustedProxyHeader // whole or damaged
	case err != nil:
		return nil, fmt.Errorf("a damaged PROXY protocol header: %w", err)
	}
	remote := c.RemoteAddr()
	if src, ok := h.SourceAddr.(*net.TCPAddr); ok && h.Command.IsProxy() {
		remote = src
	}
	return &proxiedConn{Conn: c, r: br, remote: remote, check: h.Command.IsLocal()}, nil
}

// isConnError reports whether err is the connection's own trouble (reset,
// closed, timed out mid-header) rather than go-proxyproto's complaint
// about a header that does not parse.
func isConnError(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed)
}
