// The middleware chain every session runs through, in one place.

package server

import (
	"slices"

	"charm.land/log/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	"charm.land/wish/v2/bubbletea"
	"charm.land/wish/v2/logging"
	rm "charm.land/wish/v2/recover"

	"github.com/grotto-game/grotto/server/guard"
)

// middleware returns the session middleware, listed outermost first.
// Before any of it runs, connections are admitted (server/guard), keys are
// accepted (auth.go) and session requests are filtered (server/guard).
func (s *Server) middleware() ssh.Option {
	outermostFirst := []wish.Middleware{
		// Logging first, so every session is logged with its duration,
		// refused ones too.
		logging.StructuredMiddlewareWithLogger(s.log, log.InfoLevel),
		// The per-address session rate before anything costs work.
		// Browser WebSockets draw on the same buckets (web.go).
		s.front.guard.RateLimit(),
		// Identity before anything that needs to know who: commands
		// (quarantine is for admins) and the session.
		identify,
		// A banned key is told so and goes no further (bans.go).
		s.refuseBanned,
		// Commands (scores, who, quarantine) need no terminal: before the
		// PTY check. They end at once, so they are not counted by the
		// session cap (`ssh host who` works on a full server); the rate
		// limit above and the per-address connection cap still hold them.
		s.commands,
		// The game needs a terminal: a friendly message without one.
		requirePTY(func() string { return s.sshCommand(true) }),
		// The session cap counts games: sessions that passed the rate
		// limit and have a terminal, and browsers that play (web.go).
		s.front.guard.SessionCap(),
		// The player's session: profile, model and program, the lobby slot,
		// the save when the program ends (server.go).
		s.sessionMiddleware,
		// Window sizes clamped and coalesced for the program that
		// sessionMiddleware built (server/guard).
		guard.WindowSizes,
		// Bubble Tea runs that program, innermost.
		bubbletea.MiddlewareWithProgramHandler(programOf),
	}
	// wish and recover apply the last listed first, hence the reversal.
	// recover wraps the whole chain: a panic anywhere in it ends that
	// session only, logged with its stack, never the process.
	chain := slices.Clone(outermostFirst)
	slices.Reverse(chain)
	stdlog := s.log.StandardLog(log.StandardLogOptions{ForceLevel: log.ErrorLevel})
	return wish.WithMiddleware(rm.MiddlewareWithLogger(stdlog, chain...))
}
