package server

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"charm.land/ssh"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/tui"
	"github.com/grotto-game/grotto/server/web"
	"github.com/grotto-game/grotto/store"
)

// commands answers `ssh host scores`, `ssh host scores daily [DATE]`
// (daily.go), `ssh host who`, `ssh host replays [NAME]`, `ssh host dump
// ID` (replays.go) and `ssh host web` (webLink) with plain text and exit
// status 0, and for admins `ssh host quarantine`, the games set aside
// as damaged, and the host tools `kick NAME` and `broadcast TEXT`
// (hosttools.go); any other command (the admins' too, for everyone else)
// gets a one-line error and status 1. A session without a command goes on to the
// game; `replay ID` with a terminal goes on to the replay player
// (replayplayer.go), without one it is told to use ssh -t.
func (s *Server) commands(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		cmd := sess.Command()
		if len(cmd) == 0 {
			next(sess)
			return
		}
		out := newlines(sess, sess)
		switch {
		case len(cmd) == 1 && cmd[0] == "scores":
			scores, err := s.store.TopScores(20)
			if err != nil {
				s.log.Error("scores", "err", err)
				fmt.Fprintln(sess.Stderr(), "grotto: the scores cannot be read right now")
				sess.Exit(1)
				return
			}
			writeScores(out, scores)
		case cmd[0] == "scores" && len(cmd) <= 3 && cmd[1] == "daily": // daily.go
			date := time.Now().UTC().Format(store.DailyLayout)
			if len(cmd) == 3 {
				date = cmd[2]
			}
			if !store.ValidDaily(date) {
				fmt.Fprintf(newlines(sess.Stderr(), sess), "grotto: %q is not a date; try `scores daily` (today's) or `scores daily 2006-01-02`\n", tui.Inert(date))
				sess.Exit(1)
				return
			}
			scores, err := s.store.DailyScores(date, 20)
			if err != nil {
				s.log.Error("daily scores", "err", err)
				fmt.Fprintln(sess.Stderr(), "grotto: the scores cannot be read right now")
				sess.Exit(1)
				return
			}
			writeDailyScores(out, date, scores)
		case len(cmd) == 2 && cmd[0] == "replay": // replayplayer.go: a program, after the PTY check and the session cap
			if _, _, pty := sess.Pty(); !pty {
				// The id is checked first: the hint only ever names a kept game, by its number.
				f, err := s.FinishedGame(cmd[1])
				if err != nil && !errors.Is(err, ErrNoSuchGame) && !errors.Is(err, ErrDailyNotOver) {
					s.log.Error("replay", "id", cmd[1], "err", err)
				}
				if err != nil {
					fmt.Fprintln(sess.Stderr(), "grotto: "+dumpError(err, cmd[1]))
				} else {
					fmt.Fprintln(sess.Stderr(), noPTYReplay(s.sshCommand(true, "replay", strconv.FormatUint(f.ID, 10))))
				}
				sess.Exit(1)
				return
			}
			next(sess)
			return
		case (cmd[0] == "replay" || cmd[0] == "dump") && len(cmd) != 2:
			fmt.Fprintf(newlines(sess.Stderr(), sess), "grotto: usage: %s ID (a game `replays` lists)\n", cmd[0])
			sess.Exit(2)
			return
		case cmd[0] == "replays" && len(cmd) > 2:
			fmt.Fprintln(newlines(sess.Stderr(), sess), "grotto: usage: replays [NAME] (every player's games, or NAME's)")
			sess.Exit(2)
			return
		case cmd[0] == "replays": // replays.go
			name := ""
			if len(cmd) == 2 {
				name = cmd[1]
			}
			games, err := s.finishedGames(name)
			if err != nil {
				s.log.Error("replays", "err", err)
				fmt.Fprintln(sess.Stderr(), "grotto: the finished games cannot be read right now")
				sess.Exit(1)
				return
			}
			writeReplays(out, games, name, s.clock())
		case cmd[0] == "dump" && len(cmd) == 2:
			f, err := s.FinishedGame(cmd[1])
			if err != nil && !errors.Is(err, ErrNoSuchGame) && !errors.Is(err, ErrDailyNotOver) {
				s.log.Error("dump", "id", cmd[1], "err", err)
			}
			if err != nil {
				fmt.Fprintln(newlines(sess.Stderr(), sess), "grotto: "+dumpError(err, cmd[1]))
				sess.Exit(1)
				return
			}
			writeDump(out, f)
		case len(cmd) == 1 && cmd[0] == "who":
			writeWho(out, s.allGames(), s.clock())
		case len(cmd) == 1 && cmd[0] == "web":
			if code := s.webLink(sess, out, newlines(sess.Stderr(), sess)); code != 0 {
				sess.Exit(code)
				return
			}
		case len(cmd) == 1 && cmd[0] == "quarantine" && s.isAdmin(sess):
			qs, err := s.store.Quarantined("")
			if err != nil {
				s.log.Error("quarantine", "err", err)
				fmt.Fprintln(sess.Stderr(), "grotto: the quarantine cannot be read right now")
				sess.Exit(1)
				return
			}
			writeQuarantine(out, qs)
		case cmd[0] == "kick" && s.isAdmin(sess): // hosttools.go
			if code := s.kick(sess, out, newlines(sess.Stderr(), sess), cmd[1:]); code != 0 {
				sess.Exit(code)
				return
			}
		case cmd[0] == "broadcast" && s.isAdmin(sess):
			if code := s.broadcast(sess, out, newlines(sess.Stderr(), sess), cmd[1:]); code != 0 {
				sess.Exit(code)
				return
			}
		default:
			fmt.Fprintf(newlines(sess.Stderr(), sess), "grotto: unknown command %q; try `scores`, `scores daily`, `who`, `replays [NAME]`, `replay ID`, `dump ID` or `web`, or no command to play\n", tui.Inert(strings.Join(cmd, " ")))
			sess.Exit(1)
			return
		}
		sess.Exit(0)
	}
}

// writeScores prints the table: rank, name, score, depth, turns, cause, date.
func writeScores(w io.Writer, scores []store.Score) {
	if len(scores) == 0 {
		fmt.Fprintln(w, "No scores yet.")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RANK\tNAME\tSCORE\tDEPTH\tTURNS\tCAUSE\tDATE")
	for i, sc := range scores {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d\t%d\t%s\t%s\n", i+1, tui.Inert(sc.Name), sc.Points, sc.Depth, sc.Turns,
			tui.Inert(game.ThirdPerson(sc.Cause)), sc.Date.UTC().Format("2006-01-02"))
	}
	tw.Flush()
}

// writeWho prints the live games: name, depth, turn, idle time, watchers,
// the node each plays on when the server is one of several nodes, and,
// when a game is the daily challenge, a DAILY column with its date ("-"
// for the others), followed for today's (LiveGame.Hidden) by "hidden
// until 00:00 UTC", and a line under the table that says why.
func writeWho(w io.Writer, games []tui.LiveGame, now time.Time) {
	if len(games) == 0 {
		fmt.Fprintln(w, "No one is playing.")
		return
	}
	nodes := slices.ContainsFunc(games, func(g tui.LiveGame) bool { return g.Node != "" })
	daily := slices.ContainsFunc(games, func(g tui.LiveGame) bool { return g.Daily != "" })
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := "NAME\tDEPTH\tTURN\tIDLE\tWATCHERS"
	if nodes {
		head += "\tNODE"
	}
	if daily {
		head += "\tDAILY"
	}
	fmt.Fprintln(tw, head)
	for _, g := range games {
		name, depth, turn, idle := g.Columns(now)
		row := fmt.Sprintf("%s\t%s\t%s\t%s\t%d", name, depth, turn, idle, g.Watchers)
		if nodes {
			row += "\t" + tui.Inert(g.Node)
		}
		if daily {
			d := "-"
			if g.Daily != "" {
				d = tui.Inert(g.Daily)
			}
			if g.Hidden {
				d += " " + tui.HiddenNote
			}
			row += "\t" + d
		}
		fmt.Fprintln(tw, row)
	}
	tw.Flush()
	if slices.ContainsFunc(games, func(g tui.LiveGame) bool { return g.Hidden }) {
		fmt.Fprintln(w, tui.HiddenList)
	}
}

// newlines returns w with "\n" written as "\r\n" when the session has a
// terminal, which needs it.
func newlines(w io.Writer, sess ssh.Session) io.Writer {
	if _, _, pty := sess.Pty(); pty {
		return crlf{w}
	}
	return w
}

type crlf struct{ w io.Writer }

func (c crlf) Write(p []byte) (int, error) {
	_, err := c.w.Write([]byte(strings.ReplaceAll(string(p), "\n", "\r\n")))
	return len(p), err
}

// writeQuarantine prints the games set aside as damaged: when, whose, why,
// what was kept, and the record's key.
func writeQuarantine(w io.Writer, qs []store.Quarantined) {
	if len(qs) == 0 {
		fmt.Fprintln(w, "Nothing is quarantined.")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "WHEN\tFINGERPRINT\tREASON\tSAVE BYTES\tJOURNAL ENTRIES\tKEY")
	for _, q := range qs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%s\n", q.When.UTC().Format(time.RFC3339), q.Fingerprint,
			tui.Inert(q.Reason), q.SaveBytes, q.JournalEntries, tui.Inert(q.Key))
	}
	tw.Flush()
}

// webLink answers `ssh host web`: a one-time link (server/web, tokens.go)
// that ties a browser to the session's key, for a key that has a player
// (a claimed name); it returns the exit status. The link begins with
// --http-url, else the --http address, and the text says which.
func (s *Server) webLink(sess ssh.Session, out, errOut io.Writer) int {
	if s.web == nil {
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
	path, err := s.web.IssueLink(sess.Context(), id.fp)
	if err != nil {
		s.log.Error("web link", "fp", id.fp, "err", err)
		fmt.Fprintln(errOut, "grotto: no link can be made right now (the database cannot be written); please try again later.")
		return 1
	}
	s.log.Info("web link issued", "fp", id.fp, "expires_in", web.LinkTTL)
	fmt.Fprintf(out, "Open this link in a browser to play as %s there:\n\n  %s%s\n\n", tui.Inert(p.Name), s.webBase(), path)
	fmt.Fprintf(out, "It works once, within %v, and ties that browser to this key for %v.\n", web.LinkTTL, web.SessionTTL)
	fmt.Fprintln(out, "Keep it to yourself: whoever opens it first plays your game.")
	if s.cfg.HTTPURL == "" {
		fmt.Fprintln(out, "(The address is this server's --http listening address; a host behind a proxy or a domain sets --http-url.)")
	}
	return 0
}
