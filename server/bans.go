package server

// This file: banned keys (Config.BannedKeys): refused at login with one
// line, re-read on SIGHUP (ReloadBans), and a key banned while it plays is
// taken off the server, its game saved.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"charm.land/ssh"
	"charm.land/wish/v2"

	"github.com/grotto-game/grotto/keys"
)

// bannedLine is what a banned key reads, at login or when a reload bans it
// while it plays.
const bannedLine = "This key is banned from this server."

// ReloadBans re-reads the banned-keys file (authorized_keys format, options
// ignored) and ends the live sessions of every key it bans: each saves its
// game and leaves, told why. A missing file bans nobody (logged, as a host
// may create it only when first needed). A file that cannot be read or has
// a line that does not parse is an error naming it, and the bans before
// stay in force: a typo never lets a banned key back in. With no file
// configured nobody is banned.
func (s *Server) ReloadBans() error {
	path := s.cfg.BannedKeys
	if path == "" {
		return nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		s.policy.banned.Store(&keys.AdminSet{})
		s.log.Warn("the banned-keys file does not exist: nobody is banned", "file", path)
		return nil
	}
	if err != nil {
		return fmt.Errorf("read banned keys: %w", err) // *PathError names path
	}
	set, err := keys.ParseAuthorizedKeys(data)
	if err != nil {
		return fmt.Errorf("banned keys %s: %w", path, err)
	}
	s.policy.banned.Store(&set)
	ended := s.place.live.Ban(set.Contains)
	s.log.Info("banned keys loaded", "file", path, "banned", set.Len(), "sessions_ended", ended)
	return nil
}

// isBanned reports whether fp is banned: in the banned-keys file, or by an
// admin's `ban` (kept in the store, moderation.go).
func (s *Server) isBanned(fp string) bool {
	if b := s.policy.banned.Load(); b != nil && b.Contains(fp) {
		return true
	}
	return s.storeBan(fp)
}

// refuseBanned ends the session of a banned key at once with one line
// (bannedLine) on its stderr, exit status 1, before any command or game.
// It runs after identify: keys are accepted at auth (every key is
// welcome there) so that the client can be told why, which a refused
// public key cannot be (the client only prints "Permission denied").
func (s *Server) refuseBanned(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		id, _ := sess.Context().Value(ctxIdentity).(identity)
		if s.isBanned(id.fp) {
			s.log.Info("banned key refused", "fp", id.fp, "addr", sess.RemoteAddr().String())
			wish.Fatalln(sess, bannedLine)
			return
		}
		next(sess)
	}
}
