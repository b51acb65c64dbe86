// The terminal check: grotto is a full-screen game, and a session without a
// PTY is told how to ask for one instead of hanging.

package server

import (
	"net"

	"charm.land/ssh"
	"charm.land/wish/v2"
)

// requirePTY turns away clients without a terminal with a message, not a
// hang; command returns what to type (Config.SSHCommand with tty).
func requirePTY(command func() string) wish.Middleware {
	return func(next ssh.Handler) ssh.Handler {
		return func(sess ssh.Session) {
			if _, _, ok := sess.Pty(); ok {
				next(sess)
				return
			}
			wish.Fatalln(sess, "grotto is a full-screen game and needs a terminal.\r\n"+
				"Connect with a terminal, forcing one if your client did not ask: "+command()+"\r")
		}
	}
}

// PortOf returns the port of a listen address, or "23234".
func PortOf(addr string) string {
	if _, port, err := net.SplitHostPort(addr); err == nil && port != "" && port != "0" {
		return port
	}
	return "23234"
}
