package server

// This file: the admins' host tools over `ssh host CMD`: kick a player,
// broadcast a banner to every session. On a node of a cluster both reach
// the other nodes too (hosttools_cluster.go). Everyone else is told they
// are unknown commands (commands.go).

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"charm.land/ssh"

	"github.com/grotto-game/grotto/game/tui"
	"github.com/grotto-game/grotto/server/cluster"
)

// MaxBroadcast is the longest broadcast an admin may send, in runes
// (characters): two or three lines on an 80-column terminal.
const MaxBroadcast = 200

// kickWait is how long a kick waits for the session to save and let go
// (its game saved, its key's lease released) before it answers.
const kickWait = 10 * time.Second

// kick runs `kick NAME` for an admin: the player listed under NAME (as
// `who` lists it, without regard to case) saves and leaves, told "An admin
// ended your session": on this node if it plays here, else on the node the
// cluster's listing has it on (kickElsewhere). It answers on out once the
// session has let go, naming the node on a cluster, and returns the exit
// status: 0 done, 1 no such game, it did not let go within kickWait, or
// its node did not answer.
func (s *Server) kick(sess ssh.Session, out, errOut io.Writer, typed string) int {
	name := tui.Inert(typed)
	fp, ok := s.liveNamed(typed)
	if !ok {
		return s.kickElsewhere(sess, out, errOut, typed)
	}
	s.log.Info("an admin kicked a player", "admin", s.adminOf(sess), "name", name)
	where := ""
	if s.place.clustered() {
		where = " on node " + tui.Inert(s.cfg.Node)
	}
	switch err := s.place.kick(context.Background(), fp); {
	case err == nil:
		fmt.Fprintf(out, "kicked %s%s: the session has ended.\n", name, where)
		return 0
	case errors.Is(err, cluster.ErrNotHere):
		fmt.Fprintf(errOut, "grotto: %s left%s just now\n", name, where)
		return 1
	default:
		fmt.Fprintf(errOut, "grotto: %s was told to leave but has not let go after %s; it ends once its game is saved\n", name, tui.Duration(kickWait))
		return 1
	}
}

// liveNamed returns the key of the player listed under name on this node,
// without regard to case.
func (s *Server) liveNamed(name string) (fp string, ok bool) {
	for _, g := range s.place.live.Games() {
		if g.Name != "" && strings.EqualFold(g.Name, name) {
			return g.Key, true
		}
	}
	return "", false
}

// broadcastText returns what every session shows for an admin's
// `broadcast` of raw: tabs and line breaks made spaces, every other
// control character made inert (tui.Inert), spaces trimmed. Applying it
// again changes nothing. Errors, for the admin: a text with nothing to
// show, or one above MaxBroadcast runes.
func broadcastText(raw string) (string, error) {
	text := strings.TrimSpace(tui.Inert(strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, raw)))
	switch n := utf8.RuneCountInString(text); {
	case strings.IndexFunc(text, func(r rune) bool { return !unicode.IsSpace(r) }) < 0:
		return "", errors.New("usage: broadcast TEXT (what every session shows until its next key)")
	case n > MaxBroadcast:
		return "", fmt.Errorf("a broadcast is at most %d characters; this one has %d. Nothing was sent.", MaxBroadcast, n)
	}
	return text, nil
}

// broadcast runs `broadcast TEXT…` for an admin: every session on this
// node (players, watchers, the title screen), and on a cluster every
// session of every other live node (broadcastElsewhere), shows TEXT as a
// banner until its next key. TEXT is the arguments joined by spaces, made
// safe by broadcastText. It returns the exit status: 0 sent (on a
// cluster, a node that did not get it is named on errOut, one line
// each), 2 empty or too long (nothing sent).
func (s *Server) broadcast(sess ssh.Session, out, errOut io.Writer, args []string) int {
	text, err := broadcastText(strings.Join(args, " "))
	if err != nil {
		fmt.Fprintln(errOut, "grotto: "+err.Error())
		return 2
	}
	n := s.announce(text)
	if s.place.clustered() {
		return s.broadcastElsewhere(sess, out, errOut, text, n)
	}
	s.log.Info("an admin broadcast a message", "admin", s.adminOf(sess), "sessions", n, "text", text)
	fmt.Fprintf(out, "sent to %s\n", count(n, "session"))
	return 0
}

// announce shows text, made safe by broadcastText, on every session of
// this node: the lobby's (SSH and browser players, SSH watchers) and the
// browsers' watch and replay pages (web.Server.Announce); it returns how
// many it was sent to.
func (s *Server) announce(text string) int {
	n := s.place.live.Broadcast(text)
	if s.web.srv != nil {
		n += s.web.srv.Announce(text)
	}
	return n
}

// count is n and noun, plural unless n is 1.
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// adminOf returns the fingerprint of the session's key, for the log.
func (s *Server) adminOf(sess ssh.Session) string {
	id, _ := sess.Context().Value(ctxIdentity).(identity)
	return id.fp
}
