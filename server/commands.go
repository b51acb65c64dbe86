package server

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"text/tabwriter"
	"time"

	"charm.land/ssh"

	"github.com/grotto-game/grotto/server/sshcmd"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/tui"
	"github.com/grotto-game/grotto/server/web"
	"github.com/grotto-game/grotto/store"
)

// commands answers `ssh host CMD` by the table of commandTable
// (server/sshcmd): a session without a command goes on to the game, and
// `replay ID` with a terminal to the replay player (replayplayer.go).
func (s *Server) commands(next ssh.Handler) ssh.Handler {
	return s.commandTable().Handler(s.isAdmin, next)
}

// commandTable is every `ssh host CMD`, in the order `help` lists them:
// for everyone `help`, `scores`, `scores daily [DATE]` (daily.go), `who`,
// `replays [NAME]`, `replay ID` and `dump ID` (replays.go) and `web`
// (webLink); for admins `quarantine`, the games set aside as damaged, and
// the host tools `kick NAME` and `broadcast TEXT` (hosttools.go).
func (s *Server) commandTable() sshcmd.Table {
	var t sshcmd.Table
	t = sshcmd.Table{
		{Name: "help", About: "this list", Run: func(c *sshcmd.Call) int {
			t.Help(c.Out, s.isAdmin(c.Session), s.sshCommand(false), s.sshCommand(true))
			return 0
		}},
		{Name: "scores", About: "the 20 best scores", Run: s.cmdScores},
		{Name: "scores daily", Args: "[DATE]", Note: "today's, or a day's as 2006-01-02", Max: 1,
			About: "the daily challenge's best scores, today's or DATE's (UTC)", Run: s.cmdDailyScores},
		{Name: "who", About: "the games being played now", Run: func(c *sshcmd.Call) int {
			writeWho(c.Out, s.place.games(), s.clock())
			return 0
		}},
		{Name: "replays", Args: "[NAME]", Note: "every player's games, or NAME's", Max: 1,
			About: "the finished games kept, with their IDs", Run: s.cmdReplays},
		{Name: "replay", Args: "ID", Note: "a game `replays` lists", Min: 1, Max: 1, Program: true,
			About: "watch a finished game, turn by turn (needs ssh -t)", Run: s.cmdReplayWithoutPTY},
		{Name: "dump", Args: "ID", Note: "a game `replays` lists", Min: 1, Max: 1,
			About: "a finished game's character dump", Run: s.cmdDump},
		{Name: "web", About: "a one-time link to play in a browser", Run: func(c *sshcmd.Call) int {
			return s.webLink(c.Session, c.Out, c.Err)
		}},
		{Name: "quarantine", Admin: true, About: "the games set aside as damaged", Run: s.cmdQuarantine},
		{Name: "kick", Args: "NAME", Note: "a name `who` lists", Min: 1, Max: 1, Admin: true,
			About: "end a player's session, saving the game", Run: func(c *sshcmd.Call) int {
				return s.kick(c.Session, c.Out, c.Err, c.Args[0])
			}},
		{Name: "broadcast", Args: "TEXT", Note: "what every session shows until its next key", Min: 1, Max: -1, Admin: true,
			About: "show TEXT on every session", Run: func(c *sshcmd.Call) int {
				return s.broadcast(c.Session, c.Out, c.Err, c.Args)
			}},
	}
	return t
}

// cmdScores is `scores`: the 20 best.
func (s *Server) cmdScores(c *sshcmd.Call) int {
	scores, err := s.store.TopScores(20)
	if err != nil {
		s.log.Error("scores", "err", err)
		fmt.Fprintln(c.Err, "grotto: the scores cannot be read right now")
		return 1
	}
	writeScores(c.Out, scores)
	return 0
}

// cmdDailyScores is `scores daily [DATE]`: today's (UTC) by default.
func (s *Server) cmdDailyScores(c *sshcmd.Call) int {
	date := time.Now().UTC().Format(store.DailyLayout)
	if len(c.Args) == 1 {
		date = c.Args[0]
	}
	if !store.ValidDaily(date) {
		fmt.Fprintf(c.Err, "grotto: %q is not a date; try `scores daily` (today's) or `scores daily 2006-01-02`\n", tui.Inert(date))
		return 1
	}
	scores, err := s.store.DailyScores(date, 20)
	if err != nil {
		s.log.Error("daily scores", "err", err)
		fmt.Fprintln(c.Err, "grotto: the scores cannot be read right now")
		return 1
	}
	writeDailyScores(c.Out, date, scores)
	return 0
}

// cmdReplayWithoutPTY is `replay ID` without a terminal: the ID is checked
// first, so that the hint to use ssh -t only ever names a kept game, by
// its number. (With a terminal the replay player runs.)
func (s *Server) cmdReplayWithoutPTY(c *sshcmd.Call) int {
	id := c.Args[0]
	f, err := s.FinishedGame(id)
	if err != nil && !errors.Is(err, ErrNoSuchGame) && !errors.Is(err, ErrDailyNotOver) {
		s.log.Error("replay", "id", id, "err", err)
	}
	if err != nil {
		fmt.Fprintln(c.Session.Stderr(), "grotto: "+dumpError(err, id))
	} else {
		fmt.Fprintln(c.Session.Stderr(), noPTYReplay(s.sshCommand(true, "replay", strconv.FormatUint(f.ID, 10))))
	}
	return 1
}

// cmdReplays is `replays [NAME]`.
func (s *Server) cmdReplays(c *sshcmd.Call) int {
	name := ""
	if len(c.Args) == 1 {
		name = c.Args[0]
	}
	games, err := s.finishedGames(name)
	if err != nil {
		s.log.Error("replays", "err", err)
		fmt.Fprintln(c.Session.Stderr(), "grotto: the finished games cannot be read right now")
		return 1
	}
	writeReplays(c.Out, games, name, s.clock())
	return 0
}

// cmdDump is `dump ID`.
func (s *Server) cmdDump(c *sshcmd.Call) int {
	id := c.Args[0]
	f, err := s.FinishedGame(id)
	if err != nil && !errors.Is(err, ErrNoSuchGame) && !errors.Is(err, ErrDailyNotOver) {
		s.log.Error("dump", "id", id, "err", err)
	}
	if err != nil {
		fmt.Fprintln(c.Err, "grotto: "+dumpError(err, id))
		return 1
	}
	writeDump(c.Out, f)
	return 0
}

// cmdQuarantine is `quarantine`, for admins.
func (s *Server) cmdQuarantine(c *sshcmd.Call) int {
	qs, err := s.store.Quarantined("")
	if err != nil {
		s.log.Error("quarantine", "err", err)
		fmt.Fprintln(c.Session.Stderr(), "grotto: the quarantine cannot be read right now")
		return 1
	}
	writeQuarantine(c.Out, qs)
	return 0
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
	s.log.Info("web link issued", "fp", id.fp, "expires_in", web.LinkTTL)
	fmt.Fprintf(out, "Open this link in a browser to play as %s there:\n\n  %s%s\n\n", tui.Inert(p.Name), s.webBase(), path)
	fmt.Fprintf(out, "It works once, within %v, and ties that browser to this key for %v.\n", web.LinkTTL, web.SessionTTL)
	fmt.Fprintln(out, "Keep it to yourself: whoever opens it first plays your game.")
	if s.cfg.HTTPURL == "" {
		fmt.Fprintln(out, "(The address is this server's --http listening address; a host behind a proxy or a domain sets --http-url.)")
	}
	return 0
}
