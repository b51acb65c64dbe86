// The command players are told to type (`ssh -p 2222 play.example.org
// web`): one home for every hint, from --public-ssh.

package server

import (
	"fmt"
	"net"
	"net/netip"
	"regexp"
	"strconv"
	"strings"
)

// SSHCommand returns the command that reaches this server, with -t when
// tty (a terminal forced) and args after the host, e.g.
// "ssh -t -p 2222 play.example.org replay 7". The host and port are
// PublicSSH's; without it "<host>" and Listen's port (PortOf). No -p for
// port 22.
func (c Config) SSHCommand(tty bool, args ...string) string {
	host, port := "<host>", PortOf(c.Listen)
	if h, p, err := net.SplitHostPort(c.PublicSSH); err == nil && c.PublicSSH != "" {
		host, port = h, p
		if n, err := strconv.Atoi(p); err == nil {
			port = strconv.Itoa(n) // "022" is 22
		}
	}
	parts := []string{"ssh"}
	if tty {
		parts = append(parts, "-t")
	}
	if port != "22" {
		parts = append(parts, "-p", port)
	}
	parts = append(parts, host)
	return strings.Join(append(parts, args...), " ")
}

// sshCommand is Config.SSHCommand once the server listens: without
// --public-ssh, the port is the bound one (tests listen on port 0).
func (s *Server) sshCommand(tty bool, args ...string) string {
	c := s.cfg
	if s.front.ln != nil {
		c.Listen = s.front.ln.Addr().String()
	}
	return c.SSHCommand(tty, args...)
}

// publicSSHProblem says what is wrong with --public-ssh, or "": it must be
// host:port with a host and a port from 1 to 65535.
func publicSSHProblem(addr string) string {
	const example = "play.example.org:2222"
	host, _, err := net.SplitHostPort(addr)
	if err != nil || !(hostName.MatchString(host) || isIP(host)) {
		return fmt.Sprintf("%q must be the host:port players connect to (a host name or an IP address), e.g. %s", addr, example)
	}
	return portProblem(addr, example, false)
}

// hostName matches a DNS host name (RFC 1123 labels: letters, digits and
// inner hyphens, dot-separated, an optional final dot): what players are
// told to paste into a shell never carries shell syntax, an ssh option
// (a leading "-") or a line break.
var hostName = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$`)

// isIP says whether s is an IP address without a zone.
func isIP(s string) bool {
	a, err := netip.ParseAddr(s)
	return err == nil && a.Zone() == ""
}
