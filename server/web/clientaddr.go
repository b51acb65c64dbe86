// The client's address behind an HTTP reverse proxy: X-Forwarded-For,
// believed only from the proxies the host trusts (Config.TrustedProxies),
// read by github.com/realclientip/realclientip-go's rightmost-trusted-range
// strategy (the rightmost address that is not itself a trusted proxy; see
// its README, and MDN's "X-Forwarded-For", "Selecting an IP address").

package web

import (
	"net"
	"net/http"
	"net/netip"

	"github.com/realclientip/realclientip-go"
)

// forwardedStrategy returns the strategy that reads X-Forwarded-For past
// the trusted proxies.
func forwardedStrategy(trusted []netip.Prefix) (realclientip.RightmostTrustedRangeStrategy, error) {
	ranges := make([]net.IPNet, len(trusted))
	for i, p := range trusted {
		ranges[i] = net.IPNet{IP: p.Addr().AsSlice(), Mask: net.CIDRMask(p.Bits(), p.Addr().BitLen())}
	}
	return realclientip.NewRightmostTrustedRangeStrategy("X-Forwarded-For", ranges)
}

// clientAddr is the address r counts under for the per-address limits:
// its TCP peer's; from a trusted proxy, the address its X-Forwarded-For
// names (port 0), or the proxy's own when the header names none that
// parses or only trusted proxies.
func (s *Server) clientAddr(r *http.Request) net.Addr {
	peer, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return &net.TCPAddr{}
	}
	addr := net.TCPAddrFromAddrPort(peer)
	if !s.trusted(peer.Addr()) {
		return addr
	}
	ip, err := netip.ParseAddr(s.forwarded.ClientIP(r.Header, r.RemoteAddr))
	if err != nil {
		return addr
	}
	return net.TCPAddrFromAddrPort(netip.AddrPortFrom(ip.WithZone("").Unmap(), 0))
}

// trusted says whether a is one of Config.TrustedProxies (an IPv4 address
// mapped into IPv6 counts as IPv4).
func (s *Server) trusted(a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range s.cfg.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
