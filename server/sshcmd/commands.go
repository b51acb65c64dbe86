package sshcmd

// This file: grotto's commands, the one table (Commands) of what `ssh
// host CMD` runs, and what each writes. They get what they need of the
// server through Host.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"charm.land/log/v2"
	"charm.land/ssh"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/tui"
	"github.com/grotto-game/grotto/server/cast"
	"github.com/grotto-game/grotto/server/events"
	"github.com/grotto-game/grotto/server/finished"
	"github.com/grotto-game/grotto/store"
)

// Host is what the commands need of the server that runs them, and no
// more: its stores and clock, the games of every node, and the commands
// that act on the server (a browser link, the host tools).
type Host interface {
	// Admin reports whether sess's key is an admin's (--admin-keys).
	Admin(sess ssh.Session) bool
	// Hint is what a player types to reach this server (with -t when
	// tty), with words after it: "ssh -p 2222 play.example.org replay 7".
	Hint(tty bool, words ...string) string
	// Now is the server's one clock: the daily's day, idle times.
	Now() time.Time
	// Log hears of a command that could not read what it needs; what the
	// client reads says so in one line, never with the cause's words.
	Log() *log.Logger
	// Store holds the scores, the daily's boards and the quarantine.
	Store() Store
	// Games lists the live games of every node, sorted as `who` shows
	// them.
	Games() []tui.LiveGame
	// Finished are the finished games kept.
	Finished() *finished.Games
	// Cast returns finished game id's recording made with o (`replay ID
	// --cast`), whole; its errors are finished.Games.Find's,
	// cast.ErrBadOption, cast.ErrBusy, ctx's (the client has gone) or the
	// store's.
	Cast(ctx context.Context, id string, o cast.Options) ([]byte, error)
	// WebLink answers `web` for c's key: a one-time link to play in a
	// browser. It returns the exit status.
	WebLink(c *Call) int
	// Kick answers an admin's `kick NAME`: the player listed under name
	// saves and leaves, on whichever node. It returns the exit status.
	Kick(c *Call, name string) int
	// Broadcast answers an admin's `broadcast TEXT`, text the words
	// typed: every session of every node shows it. It returns the exit
	// status.
	Broadcast(c *Call, text []string) int
	// Events is the node's live events feed (server/events): `events`
	// follows it.
	Events() *events.Hub
	// Banned reports whether sess's key is banned now (the banned-keys
	// file, or an admin's `ban`): a command that follows something for
	// long (`events`) asks it every BanCheckEvery and ends.
	Banned(sess ssh.Session) bool
	// Moderate answers an admin's moderation command for action (a
	// store.Act* value: rename, remove-score, restore-score, ban, unban, mute, unmute)
	// with c.Args as typed. It returns the exit status.
	Moderate(c *Call, action string) int
}

// Store is what the commands read of the store.
type Store interface {
	TopScores(n int) ([]store.Score, error)
	DailyScores(date string, n int) ([]store.Score, error)
	Quarantined(fp string) ([]store.Quarantined, error)
	Bans() ([]store.Act, error)
	Mutes() ([]store.Act, error)
	ModerationLog(n int) ([]store.Act, error)
	Profile(fp string) (store.Profile, error)
}

// Commands is every `ssh host CMD` of h, in the order `help` lists them:
// for everyone `help`, `scores`, `scores daily [DATE]`, `who`, `events`, `replays
// [NAME]`, `replay ID` (a program with a terminal: the replay player; see
// Command.Program), `replay ID --cast` (an asciinema recording, with or
// without a terminal: Command.Plain), `player NAME` and `dump ID`, and `web`; for admins `quarantine`, the
// games set aside as damaged, the host tools `kick NAME` and
// `broadcast TEXT`, and moderation: `rename`, `remove-score`,
// `restore-score`, `ban`, `unban`, `mute`, `unmute`, `bans`, `mutes` and
// `moderation`.
func Commands(h Host) Table {
	var t Table
	with := func(run func(Host, *Call) int) func(*Call) int { return func(c *Call) int { return run(h, c) } }
	t = Table{
		{Name: "help", About: "this list", Run: func(c *Call) int {
			t.Help(c.Out, h.Admin(c.Session), h.Hint(false), h.Hint(true))
			return 0
		}},
		{Name: "scores", About: "the 20 best scores", Run: with(cmdScores)},
		{Name: "scores daily", Args: "[DATE]", Note: "today's, or a day's as 2006-01-02", Max: 1,
			About: "the daily challenge's best scores, today's or DATE's (UTC)", Run: with(cmdDailyScores)},
		{Name: "who", About: "the games being played now", Run: func(c *Call) int {
			writeWho(c.Out, h.Games(), h.Now())
			return 0
		}},
		{Name: "events", About: "the last events of every game (a game begun, a new depth, a level-up, a notable kill, an end), then each as it happens, one JSON line each, until you leave",
			Run: with(cmdEvents)},
		{Name: "replays", Args: "[NAME]", Note: "every player's games, or NAME's", Max: 1,
			About: "the finished games kept, with their IDs", Run: with(cmdReplays)},
		{Name: "replay", Args: "ID [--cast]", Note: "a game `replays` lists; " + castFlags, Min: 1, Max: 8,
			Program: true, Plain: func(args []string) bool { return len(args) > 1 },
			About: "watch a finished game, turn by turn (needs ssh -t); --cast: as an asciinema recording",
			Run:   with(cmdReplay)},
		{Name: "player", Args: "NAME", Note: "a player's name", Min: 1, Max: 1,
			About: "a player's games: wins, best score, deaths, streak, the last games", Run: with(cmdPlayer)},
		{Name: "dump", Args: "ID", Note: "a game `replays` lists", Min: 1, Max: 1,
			About: "a finished game's character dump", Run: with(cmdDump)},
		{Name: "web", About: "a one-time link to play in a browser", Run: h.WebLink},
		{Name: "quarantine", Admin: true, About: "the games set aside as damaged", Run: with(cmdQuarantine)},
		{Name: "kick", Args: "NAME", Note: "a name `who` lists", Min: 1, Max: 1, Admin: true,
			About: "end a player's session, saving the game", Run: func(c *Call) int { return h.Kick(c, c.Args[0]) }},
		{Name: "broadcast", Args: "TEXT", Note: "what every session shows until its next key", Min: 1, Max: -1, Admin: true,
			About: "show TEXT on every session", Run: func(c *Call) int { return h.Broadcast(c, c.Args) }},
		{Name: "rename", Args: "NAME NEWNAME [REASON]", Note: "NAME a player's name or key (SHA256:…)", Min: 2, Max: -1, Admin: true,
			About: "give a player another name, on their scores and games too", Run: moderate(h, store.ActRename)},
		{Name: "remove-score", Args: "ID [REASON]", Note: "a game `replays` lists", Min: 1, Max: -1, Admin: true,
			About: "take a game's score off the tables (the game stays kept, marked)", Run: moderate(h, store.ActRemoveScore)},
		{Name: "restore-score", Args: "ID [REASON]", Note: "a game whose score was removed", Min: 1, Max: -1, Admin: true,
			About: "put a removed score back on its table", Run: moderate(h, store.ActRestoreScore)},
		{Name: "ban", Args: "NAME [REASON]", Note: "a player's name or key (SHA256:…)", Min: 1, Max: -1, Admin: true,
			About: "ban a key on every node, ending its sessions; its name stays held", Run: moderate(h, store.ActBan)},
		{Name: "unban", Args: "NAME [REASON]", Note: "a player's name or key (SHA256:…)", Min: 1, Max: -1, Admin: true,
			About: "lift a ban made with `ban`", Run: moderate(h, store.ActUnban)},
		{Name: "mute", Args: "NAME [REASON]", Note: "a player's name or key (SHA256:…)", Min: 1, Max: -1, Admin: true,
			About: "mute a key in every game's chat, on every node; it still plays and watches", Run: moderate(h, store.ActMute)},
		{Name: "unmute", Args: "NAME [REASON]", Note: "a player's name or key (SHA256:…)", Min: 1, Max: -1, Admin: true,
			About: "lift a mute made with `mute`", Run: moderate(h, store.ActUnmute)},
		{Name: "bans", Admin: true, About: "the keys banned with `ban`, and why", Run: with(cmdBans)},
		{Name: "mutes", Admin: true, About: "the keys muted in the chat with `mute`, and why", Run: with(cmdMutes)},
		{Name: "moderation", Admin: true, About: "the last 50 moderation acts: who did what to whom, and why", Run: with(cmdModeration)},
	}
	return t
}

// cmdEvents is `events`: the feed's recent events, then each new one as
// it comes, one JSON line each (docs/events.md; Event.Line escapes every
// byte a terminal would act on), until the client leaves or the server
// stops (status 0), or, on a terminal (`ssh -t`), types Ctrl+C or q
// (status 0). A client that reads too slowly is cut by the hub: it
// is told on stderr and gets status 1. One that reads nothing at all
// blocks the write of its lines once its SSH window is full: the lines
// are written by a goroutine of their own, and a cut closes the client's
// connection, which ends that write (it would otherwise hold the session
// until the client went).
func cmdEvents(h Host, c *Call) int {
	recent, sub := h.Events().Follow(0)
	defer sub.Stop()
	// The writer stops at the next line once the feed is ending for the
	// client (cut, banned): what is queued is not worth more of a slow
	// client's window than the line that says why.
	var ending atomic.Bool
	wrote := make(chan bool, 1) // the writer ended: true when the feed did (not the client)
	go func() {
		for _, e := range recent {
			if _, err := c.Out.Write(e.Line()); err != nil {
				wrote <- false
				return
			}
		}
		for e := range sub.C() {
			if ending.Load() {
				break
			}
			if _, err := c.Out.Write(e.Line()); err != nil {
				wrote <- false
				return
			}
		}
		wrote <- true
	}()
	var left <-chan struct{}
	var quit <-chan struct{}
	if c.Session != nil {
		left = c.Session.Context().Done()
		if _, _, pty := c.Session.Pty(); pty {
			quit = quitKey(c.Session)
		}
	}
	check := time.NewTicker(BanCheckEvery)
	defer check.Stop()
	end := func(words string) int {
		ending.Store(true)
		tellFollower(c, words)
		return 1
	}
	for {
		select {
		case <-left:
			return 0
		case <-quit:
			return 0
		case <-check.C:
			if c.Session != nil && h.Banned(c.Session) {
				return end("This key is banned from this server.")
			}
		case <-sub.CutC():
			return end(cutWords)
		case fed := <-wrote:
			switch {
			case fed && sub.Cut():
				return end(cutWords)
			case fed: // the hub closed: the server is stopping
				tellFollower(c, "grotto: the server is shutting down; the feed has ended. Connect again later to follow it.")
			}
			return 0 // the client left, or the server is stopping
		}
	}
}

// cutWords is what a follower the hub cut reads.
const cutWords = "grotto: you fell behind the events feed and missed some; connect again to follow it"

// tellFollower tells a follower why its feed ends (words, on stderr),
// unless that takes longer than CutGrace: stderr shares the channel's
// window with the lines, so a client that reads nothing (or too little)
// blocks it, and then only closing its connection ends the session.
func tellFollower(c *Call, words string) {
	told := make(chan struct{})
	go func() {
		fmt.Fprintln(c.Err, words)
		close(told)
	}()
	select {
	case <-told:
	case <-time.After(CutGrace):
		hangUp(c.Session)
	}
}

// quitKey returns a channel closed once the client types Ctrl+C, Ctrl+D,
// q or Q on the session's terminal (`ssh -t host events`, where the
// terminal sends Ctrl+C to the server rather than ending ssh), or its
// input ends. Only what is typed is read, a byte at a time; nothing else
// is done with it.
func quitKey(in io.Reader) <-chan struct{} {
	quit := make(chan struct{})
	go func() {
		defer close(quit)
		b := make([]byte, 64)
		for {
			n, err := in.Read(b)
			for _, k := range b[:n] {
				switch k {
				case 0x03, 0x04, 'q', 'Q':
					return
				}
			}
			if err != nil {
				return
			}
		}
	}()
	return quit
}

// CutGrace is how long a follower the hub cut has to take the lines it
// was sent before its connection is closed.
const CutGrace = 2 * time.Second

// hangUp closes the SSH connection of sess (nothing without one).
func hangUp(sess ssh.Session) {
	if sess == nil {
		return
	}
	if conn, ok := sess.Context().Value(ssh.ContextKeyConn).(io.Closer); ok {
		_ = conn.Close()
	}
}

// BanCheckEvery is how often a follower of the events feed is checked
// against the bans: a key banned while it follows is cut within it.
const BanCheckEvery = 2 * time.Second

// moderate is the Run of the moderation command for action.
func moderate(h Host, action string) func(*Call) int {
	return func(c *Call) int { return h.Moderate(c, action) }
}

// ModerationShown is how many acts `moderation` lists, newest first.
const ModerationShown = 50

// cmdBans is `bans`, for admins.
func cmdBans(h Host, c *Call) int {
	return listActs(c, h, "bans", namedNow(h, h.Store().Bans), "No key is banned with `ban` (the banned-keys file may ban others).")
}

// namedNow is read with each act's player named as the key's profile
// names it now, the name at the act's time after it ("kat (was cat)"):
// for the lists of bans and mutes in force, whose names an admin types
// to lift them, and which a rename since would leave naming nobody, or
// another key that claimed the old name (a breaker).
func namedNow(h Host, read func() ([]store.Act, error)) func() ([]store.Act, error) {
	return func() ([]store.Act, error) {
		acts, err := read()
		for i, a := range acts {
			p, perr := h.Store().Profile(a.Fingerprint)
			if perr != nil || p.Name == "" || p.Name == a.Name {
				continue
			}
			if a.Name != "" {
				acts[i].Name = p.Name + " (was " + a.Name + ")"
			} else {
				acts[i].Name = p.Name
			}
		}
		return acts, err
	}
}

// cmdMutes is `mutes`, for admins: the keys muted in the chat now.
func cmdMutes(h Host, c *Call) int {
	return listActs(c, h, "mutes", namedNow(h, h.Store().Mutes), "No key is muted in the chat.")
}

// cmdModeration is `moderation`, for admins.
func cmdModeration(h Host, c *Call) int {
	return listActs(c, h, "moderation log", func() ([]store.Act, error) { return h.Store().ModerationLog(ModerationShown) }, "No moderation yet.")
}

// listActs writes the acts read returns (WriteActs, none when there are
// none), or that the what cannot be read now; it returns the exit status.
func listActs(c *Call, h Host, what string, read func() ([]store.Act, error), none string) int {
	acts, err := read()
	if err != nil {
		h.Log().Error(what, "err", err)
		fmt.Fprintf(c.Err, "grotto: the %s cannot be read right now\n", what)
		return 1
	}
	WriteActs(c.Out, acts, none)
	return 0
}

// NoPTYReplay is what `ssh host replay ID` without a terminal reads, for
// a kept game (its id checked first: only a number is ever echoed);
// command is what to type (Host.Hint with tty, "replay" and the id).
func NoPTYReplay(command string) string {
	return "grotto: a replay needs a terminal; connect with one: " + command
}

// cmdScores is `scores`: the 20 best.
func cmdScores(h Host, c *Call) int {
	scores, err := h.Store().TopScores(20)
	if err != nil {
		h.Log().Error("scores", "err", err)
		fmt.Fprintln(c.Err, "grotto: the scores cannot be read right now")
		return 1
	}
	writeScores(c.Out, scores)
	return 0
}

// cmdDailyScores is `scores daily [DATE]`: today's (UTC) by default.
func cmdDailyScores(h Host, c *Call) int {
	date := h.Now().UTC().Format(store.DailyLayout)
	if len(c.Args) == 1 {
		date = c.Args[0]
	}
	if !store.ValidDaily(date) {
		fmt.Fprintf(c.Err, "grotto: %q is not a date; try `scores daily` (today's) or `scores daily 2006-01-02`\n", tui.Inert(date))
		return 1
	}
	scores, err := h.Store().DailyScores(date, 20)
	if err != nil {
		h.Log().Error("daily scores", "err", err)
		fmt.Fprintln(c.Err, "grotto: the scores cannot be read right now")
		return 1
	}
	writeDailyScores(c.Out, date, scores)
	return 0
}

// cmdReplay is `replay ID --cast [--size WxH] [--speed N] [--idle S]`,
// with or without a terminal, and `replay ID` without one.
func cmdReplay(h Host, c *Call) int {
	if len(c.Args) == 1 {
		return cmdReplayWithoutPTY(h, c)
	}
	o, err := castOptions(c.Args[1:])
	if err != nil {
		fmt.Fprintln(c.Err, "grotto: "+err.Error())
		return 2
	}
	id := c.Args[0]
	rec, err := h.Cast(c.Session.Context(), id, o)
	switch {
	case errors.Is(err, cast.ErrBusy):
		fmt.Fprintln(c.Err, "grotto: "+err.Error())
		return 1
	case errors.Is(err, context.Canceled):
		return 1 // the client has gone
	case err != nil:
		if !errors.Is(err, finished.ErrNoSuchGame) && !errors.Is(err, finished.ErrDailyNotOver) {
			h.Log().Error("replay --cast", "id", id, "err", err)
		}
		fmt.Fprintln(c.Err, "grotto: "+finished.Problem(err, id))
		return 1
	}
	if _, err := c.Session.Write(rec); err != nil { // not c.Out: the recording as made (a terminal's session still ends lines "\r\n", which asciinema reads)
		return 1
	}
	return 0
}

// castFlags and castDefaults are what the usage lines say of --cast.
const (
	castFlags    = "--cast takes --size WxH, --speed N, --idle S"
	castDefaults = "size in cells, 80x24 by default; speed 1 by default; idle in seconds, 2 by default"
)

// castOptions reads the words after `replay ID`: --cast, then --size,
// --speed and --idle, each with its value as the next word or after "=".
// Its error is one line, without the words typed: what is allowed.
func castOptions(words []string) (cast.Options, error) {
	usage := errors.New("usage: replay ID --cast [--size WxH] [--speed N] [--idle S] (" + castDefaults + ")")
	vals := map[string]string{}
	hasCast := false
	for i := 0; i < len(words); i++ {
		name, val, inline := strings.Cut(words[i], "=")
		switch name {
		case "--cast":
			if inline || hasCast {
				return cast.Options{}, usage
			}
			hasCast = true
			continue
		case "--size", "--speed", "--idle":
		default:
			return cast.Options{}, usage
		}
		if _, twice := vals[name]; twice {
			return cast.Options{}, usage
		}
		if !inline {
			if i+1 >= len(words) {
				return cast.Options{}, usage
			}
			i++
			val = words[i]
		}
		vals[name] = val
	}
	if !hasCast {
		return cast.Options{}, usage
	}
	return cast.Parse(vals["--size"], vals["--speed"], vals["--idle"])
}

// cmdReplayWithoutPTY is `replay ID` without a terminal: the ID is checked
// first, so that the hint to use ssh -t only ever names a kept game, by
// its number. (With a terminal the replay player runs.)
func cmdReplayWithoutPTY(h Host, c *Call) int {
	id := c.Args[0]
	f, err := h.Finished().Find(id)
	if err != nil && !errors.Is(err, finished.ErrNoSuchGame) && !errors.Is(err, finished.ErrDailyNotOver) {
		h.Log().Error("replay", "id", id, "err", err)
	}
	if err != nil {
		fmt.Fprintln(c.Err, "grotto: "+finished.Problem(err, id))
	} else {
		fmt.Fprintln(c.Err, NoPTYReplay(h.Hint(true, "replay", strconv.FormatUint(f.ID, 10))))
	}
	return 1
}

// cmdReplays is `replays [NAME]`.
func cmdReplays(h Host, c *Call) int {
	name := ""
	if len(c.Args) == 1 {
		name = c.Args[0]
	}
	games, err := h.Finished().List(name)
	if err != nil {
		h.Log().Error("replays", "err", err)
		fmt.Fprintln(c.Err, "grotto: the finished games cannot be read right now")
		return 1
	}
	finished.WriteList(c.Out, games, name, h.Now())
	return 0
}

// cmdPlayer is `player NAME`.
func cmdPlayer(h Host, c *Call) int {
	name := c.Args[0]
	car, err := h.Finished().Career(name)
	switch {
	case errors.Is(err, finished.ErrNoSuchPlayer):
		fmt.Fprintf(c.Err, "grotto: no player is called %s\n", finished.Echoed(name))
		return 1
	case err != nil:
		h.Log().Error("player", "name", tui.Inert(name), "err", err)
		fmt.Fprintln(c.Err, "grotto: the player's games cannot be read right now")
		return 1
	}
	finished.WriteCareer(c.Out, car, h.Now())
	return 0
}

// cmdDump is `dump ID`.
func cmdDump(h Host, c *Call) int {
	id := c.Args[0]
	f, err := h.Finished().Find(id)
	if err != nil && !errors.Is(err, finished.ErrNoSuchGame) && !errors.Is(err, finished.ErrDailyNotOver) {
		h.Log().Error("dump", "id", id, "err", err)
	}
	if err != nil {
		fmt.Fprintln(c.Err, "grotto: "+finished.Problem(err, id))
		return 1
	}
	finished.WriteDump(c.Out, f)
	return 0
}

// cmdQuarantine is `quarantine`, for admins.
func cmdQuarantine(h Host, c *Call) int {
	qs, err := h.Store().Quarantined("")
	if err != nil {
		h.Log().Error("quarantine", "err", err)
		fmt.Fprintln(c.Err, "grotto: the quarantine cannot be read right now")
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
// until 00:00 UTC", and a line under the table that says why. The last
// column, DOING, says what each session does (tui.Activity.Text:
// "playing", "on the title", "game over", "won", "watching NAME"); depth
// and turn are "-" unless it plays.
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
	head += "\tDOING"
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
		row += "\t" + g.Activity.Text()
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

// writeDailyScores prints the board of the daily of date as writeScores
// prints the main one, under a line naming the day.
func writeDailyScores(w io.Writer, date string, scores []store.Score) {
	fmt.Fprintf(w, "Daily challenge of %s (UTC)\n", date)
	if len(scores) == 0 {
		fmt.Fprintln(w, "No scores yet.")
		return
	}
	writeScores(w, scores)
}

// WriteActs prints acts (none when there are none), one a line: when, admin, what, whom, why.
func WriteActs(w io.Writer, acts []store.Act, none string) {
	if len(acts) == 0 {
		fmt.Fprintln(w, none)
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tWHEN\tADMIN\tACTION\tPLAYER\tKEY\tWHAT\tREASON")
	for _, a := range acts {
		what := "-"
		switch a.Action {
		case store.ActRename:
			what = "to " + tui.Inert(a.NewName)
		case store.ActRemoveScore, store.ActRestoreScore:
			what = "game " + strconv.FormatUint(a.GameID, 10)
		}
		name, reason := tui.Inert(a.Name), tui.Inert(a.Detail)
		if name == "" {
			name = "-"
		}
		if reason == "" {
			reason = "-"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", a.Seq, a.When.UTC().Format(time.RFC3339), tui.Inert(a.Admin), tui.Inert(a.Action),
			name, tui.Inert(a.Fingerprint), what, reason)
	}
	tw.Flush()
}
