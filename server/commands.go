package server

// This file: the server as the SSH commands' host (server/sshcmd): what
// `ssh host CMD` reads and does, and `web`'s link.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"charm.land/log/v2"
	"charm.land/ssh"

	"github.com/grotto-game/grotto/game/tui"
	"github.com/grotto-game/grotto/server/cast"
	"github.com/grotto-game/grotto/server/events"
	"github.com/grotto-game/grotto/server/finished"
	"github.com/grotto-game/grotto/server/sshcmd"
	"github.com/grotto-game/grotto/server/web"
	"github.com/grotto-game/grotto/store"
)

// commands answers `ssh host CMD` by the table of sshcmd.Commands: a
// session without a command goes on to the game, and `replay ID` with a
// terminal to the replay player (replayplayer.go).
func (s *Server) commands(next ssh.Handler) ssh.Handler {
	return sshcmd.Commands(commandHost{s}).Handler(s.isAdmin, next)
}

// commandHost is the server as the commands see it (sshcmd.Host).
type commandHost struct{ s *Server }

var _ sshcmd.Host = commandHost{}

func (h commandHost) Admin(sess ssh.Session) bool { return h.s.isAdmin(sess) }
func (h commandHost) Hint(tty bool, words ...string) string {
	return h.s.sshCommand(tty, words...)
}
func (h commandHost) Now() time.Time            { return h.s.clock() }
func (h commandHost) Log() *log.Logger          { return h.s.log }
func (h commandHost) Store() sshcmd.Store       { return h.s.store }
func (h commandHost) Games() []tui.LiveGame     { return h.s.place.games() }
func (h commandHost) Finished() *finished.Games { return h.s.replays.games }
func (h commandHost) Events() *events.Hub       { return h.s.feed.hub }
func (h commandHost) Banned(sess ssh.Session) bool {
	id, _ := sess.Context().Value(ctxIdentity).(identity)
	return h.s.isBanned(id.fp)
}
func (h commandHost) Cast(ctx context.Context, id string, o cast.Options) ([]byte, error) {
	return h.s.Cast(ctx, id, o)
}
func (h commandHost) WebLink(c *sshcmd.Call) int {
	return h.s.webLink(c.Session, c.Out, c.Err)
}
func (h commandHost) Kick(c *sshcmd.Call, name string) int {
	return h.s.kick(c.Session, c.Out, c.Err, name)
}
func (h commandHost) Broadcast(c *sshcmd.Call, text []string) int {
	return h.s.broadcast(c.Session, c.Out, c.Err, text)
}
func (h commandHost) Moderate(c *sshcmd.Call, action string) int {
	switch action {
	case store.ActRename:
		return h.s.rename(c.Session, c.Out, c.Err, c.Args)
	case store.ActRemoveScore, store.ActRestoreScore:
		return h.s.moveScore(c.Session, c.Out, c.Err, action, c.Args)
	case store.ActBan:
		return h.s.banKey(c.Session, c.Out, c.Err, c.Args)
	case store.ActMute, store.ActUnmute:
		return h.s.muteKey(c.Session, c.Out, c.Err, action, c.Args)
	default:
		return h.s.unbanKey(c.Session, c.Out, c.Err, c.Args)
	}
}

// webLink answers `ssh host web`: a one-time link (server/web, tokens.go)
// that ties a browser to the session's key, for a key that has a player
// (a claimed name); it returns the exit status. The link begins with
// --http-url, else the --http address, and the text says which.
func (s *Server) webLink(sess ssh.Session, out, errOut io.Writer) int {
	if s.web.srv == nil {
		fmt.Fprintln(errOut, "grotto: this server has no web pages (--http is off), so no browser can play here.")
		return 1
	}
	id, _ := sess.Context().Value(ctxIdentity).(identity)
	p, err := s.store.Profile(id.fp)
	switch {
	case errors.Is(err, store.ErrNotFound) || (err == nil && p.Name == ""):
		fmt.Fprintln(errOut, "grotto: this key has no player here yet. Connect once with plain ssh (no command) to choose a name, then ask for a link again.")
		return 1
	case err != nil:
		s.log.Error("web link: profile", "fp", id.fp, "err", err)
		fmt.Fprintln(errOut, "grotto: the database cannot be read right now; please try again later.")
		return 1
	}
	path, err := s.web.srv.IssueLink(sess.Context(), id.fp)
	if err != nil {
		s.log.Error("web link", "fp", id.fp, "err", err)
		fmt.Fprintln(errOut, "grotto: no link can be made right now (the database cannot be written); please try again later.")
		return 1
	}
	if s.cfg.HTTPURL == "" { // the host's to read, not the player's
		s.log.Info("web link issued", "fp", id.fp, "expires_in", web.LinkTTL,
			"note", "the link's address is this server's --http listening address; a host behind a proxy or a domain sets --http-url")
	} else {
		s.log.Info("web link issued", "fp", id.fp, "expires_in", web.LinkTTL)
	}
	fmt.Fprintf(out, "Open this link in a browser to play as %s there:\n\n  %s%s\n\n", tui.Inert(p.Name), s.webBase(), path)
	fmt.Fprintf(out, "It works once, within %s, and ties that browser to this key for %s.\n", tui.Duration(web.LinkTTL), tui.Duration(web.SessionTTL))
	fmt.Fprintln(out, "Keep it to yourself: whoever opens it first plays your game.")
	if s.cfg.HTTPURL == "" && s.policy.admins.Load().Contains(id.fp) { // a player is not told what the host must do
		fmt.Fprintln(out, "(Host: the address is this server's --http listening address; behind a proxy or a domain, set --http-url.)")
	}
	return 0
}
