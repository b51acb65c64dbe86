package server

// This file: the admins' host tools over `ssh host CMD`: kick a player off
// this node, broadcast a banner to every session on it. Everyone else is
// told they are unknown commands (commands.go).

import (
	"fmt"
	"io"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"charm.land/ssh"

	"github.com/grotto-game/grotto/game/tui"
)

// MaxBroadcast is the longest broadcast an admin may send, in runes
// (characters): two or three lines on an 80-column terminal.
const MaxBroadcast = 200

// kickWait is how long `kick` waits for the session to save and let go
// before it answers.
const kickWait = 10 * time.Second

// kick runs `kick NAME` for an admin: the player listed under NAME on this
// node (as `who` lists it, without regard to case) saves and leaves, told
// "An admin ended your session". It answers on out once the session has
// let go, and returns the exit status: 0 done, 1 no such game or it did
// not let go within kickWait, 2 bad usage.
func (s *Server) kick(sess ssh.Session, out, errOut io.Writer, args []string) int {
	if len(args) != 1 {
		fmt.Fprintln(errOut, "grotto: usage: kick NAME (a name `who` lists)")
		return 2
	}
	name := tui.Inert(args[0])
	released, ok := s.live.Kick(args[0])
	if !ok {
		fmt.Fprintf(errOut, "grotto: no live game named %s on this server\n", name)
		return 1
	}
	s.log.Info("an admin kicked a player", "admin", s.adminOf(sess), "name", name)
	select {
	case <-released:
		fmt.Fprintf(out, "kicked %s: the session has ended.\n", name)
		return 0
	case <-time.After(kickWait):
		fmt.Fprintf(errOut, "grotto: %s was told to leave but has not let go after %v; it ends once its game is saved\n", name, kickWait)
		return 1
	}
}

// broadcast runs `broadcast TEXT…` for an admin: every session on this
// node (players, watchers, the title screen) shows TEXT as a banner until
// its next key. TEXT is the arguments joined by spaces, with tabs and line
// breaks made spaces and every other control character made inert
// (tui.Inert); at most MaxBroadcast runes. It returns the exit status: 0
// sent, 2 empty or too long.
func (s *Server) broadcast(sess ssh.Session, out, errOut io.Writer, args []string) int {
	text := strings.TrimSpace(tui.Inert(strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, strings.Join(args, " "))))
	switch n := utf8.RuneCountInString(text); {
	case strings.IndexFunc(text, func(r rune) bool { return !unicode.IsSpace(r) }) < 0:
		fmt.Fprintln(errOut, "grotto: usage: broadcast TEXT (what every session here shows until its next key)")
		return 2
	case n > MaxBroadcast:
		fmt.Fprintf(errOut, "grotto: a broadcast is at most %d characters; this one has %d. Nothing was sent.\n", MaxBroadcast, n)
		return 2
	}
	n := s.live.Broadcast(text)
	s.log.Info("an admin broadcast a message", "admin", s.adminOf(sess), "sessions", n, "text", text)
	if n == 1 {
		fmt.Fprintln(out, "sent to 1 session")
	} else {
		fmt.Fprintf(out, "sent to %d sessions\n", n)
	}
	return 0
}

// adminOf returns the fingerprint of the session's key, for the log.
func (s *Server) adminOf(sess ssh.Session) string {
	id, _ := sess.Context().Value(ctxIdentity).(identity)
	return id.fp
}
