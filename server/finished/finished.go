// Package finished is the finished games kept whole: listing them
// (`ssh host replays`), finding one by the ID a player typed (`dump`),
// and opening its replay for the replay player, over SSH, on the title
// screen and on the web. A game whose record or history is damaged is
// quarantined on first read and never shown as a different game; a
// daily's game of a day not over yet is not shown to anyone.
package finished

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"charm.land/log/v2"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/replay"
	"github.com/grotto-game/grotto/game/tui"
	"github.com/grotto-game/grotto/store"
)

// Store is what the finished games are read from: the finished games
// themselves, their quarantine, the daily's secret (a daily game's seed
// is checked against it), and for player pages each key's games, names
// and profiles.
type Store interface {
	FinishedGame(id uint64) (store.Finished, error)
	FinishedGames(name string, n int) ([]store.Finished, error)
	QuarantineFinished(id uint64, reason string, now time.Time) (key string, err error)
	DailySecret() ([]byte, error)
	KeyGames(fp string) ([]store.Finished, error)
	NameHolder(name string) (string, error)
	Profile(fp string) (store.Profile, error)
}

// Games are the finished games of a store, as players may see them.
type Games struct {
	st   Store
	data *content.Tables
	log  *log.Logger
	now  func() time.Time
}

// New returns the finished games of st, replayed with data; log hears of
// the games quarantined, and now is the clock that says whether a daily's
// day is over (the server's one clock).
func New(st Store, data *content.Tables, log *log.Logger, now func() time.Time) *Games {
	return &Games{st: st, data: data, log: log, now: now}
}

// Listed is how many finished games List returns at most.
const Listed = 50

// ErrNoSuchGame is returned (wrapped, naming the id as given) by
// Open and Find for an id that names no finished game kept.
var ErrNoSuchGame = errors.New("no such finished game")

// ErrHistoryDamaged is returned (wrapped, with the cause) by Open
// and Find when the game's history cannot be read: the game has
// just been quarantined (`ssh host quarantine` lists it) and is no longer
// listed.
var ErrHistoryDamaged = errors.New("the game's history is damaged and has been set aside for the host")

// ErrDailyNotOver is returned by Find (and so Open) for a
// daily game of a day that is not over yet (UTC): its commands would let
// anyone copy a leader's moves, so its replay and dump open after 00:00
// UTC (its player's own too, alike for all). Its text is the one line a
// viewer reads after "grotto: " (lower case first, no full stop, as
// grotto's other lines); Sentence makes it one for the title and the web.
var ErrDailyNotOver = errors.New("this is today's daily challenge: its replay opens after 00:00 UTC")

// DailyOver reports whether the daily of date ("2006-01-02") is over at
// now: its UTC day has ended. A date not before today is not over.
func DailyOver(date string, now time.Time) bool {
	return date < now.UTC().Format(store.DailyLayout) // "2006-01-02" sorts as the days do
}

// Find returns finished game id (as a player typed it: digits),
// whole, after checking that its history can be read (a game kept
// without one, from before histories were kept, passes: its dump reads).
// Errors wrap ErrNoSuchGame (unknown or malformed id), ErrDailyNotOver
// (today's daily), ErrHistoryDamaged (the game was quarantined now), or
// the store's error.
func (g *Games) Find(id string) (store.Finished, error) {
	n, err := strconv.ParseUint(id, 10, 64)
	if err != nil || n == 0 {
		return store.Finished{}, fmt.Errorf("%w: %q", ErrNoSuchGame, id)
	}
	f, err := g.st.FinishedGame(n)
	if errors.Is(err, store.ErrNotFound) {
		return store.Finished{}, fmt.Errorf("%w: #%d", ErrNoSuchGame, n)
	}
	if errors.Is(err, store.ErrCorrupt) {
		return store.Finished{}, g.setAside(n, err)
	}
	if err != nil {
		return store.Finished{}, err
	}
	if len(f.Record.History) > 0 {
		if _, err := game.DecodeHistory(f.Record.History); err != nil {
			return store.Finished{}, g.setAside(n, err)
		}
	}
	if f.Score.Daily != "" && !DailyOver(f.Score.Daily, g.now()) {
		return store.Finished{}, ErrDailyNotOver
	}
	return f, nil
}

// setAside quarantines finished game id, whose record or history cause
// says is damaged, and returns the error that says so.
func (g *Games) setAside(id uint64, cause error) error {
	key, qerr := g.st.QuarantineFinished(id, cause.Error(), g.now())
	if qerr != nil {
		g.log.Error("quarantine finished game", "id", id, "cause", cause, "err", qerr)
		return fmt.Errorf("%w (%v); setting it aside failed: %v", ErrHistoryDamaged, cause, qerr)
	}
	var m *replay.Mismatch
	if errors.As(cause, &m) && m.Detail != "" { // the core's own words, for the host
		g.log.Warn("finished game quarantined", "id", id, "key", key, "cause", cause, "detail", m.Detail)
	} else {
		g.log.Warn("finished game quarantined", "id", id, "key", key, "cause", cause)
	}
	return fmt.Errorf("%w: %w", ErrHistoryDamaged, cause)
}

// Open returns finished game id (digits, as typed) and its replay at
// turn 0, for the replay player: step it with Step, Seek, NextDepth and
// End (package game/replay), draw Replay.Game(). The record is verified
// whole first (replay.Verify; a daily's seed against its date, checkDaily),
// so no frame of a damaged record is ever shown under a player's name.
// Errors: those of Find; ErrHistoryDamaged for a record that does
// not replay to its recorded end (it is quarantined now); for a game
// played under other rules than this server's, or kept without its
// history, the game f with an error wrapping replay.ErrOtherRules or
// replay.ErrNoHistory (show f.Record.Dump instead).
func (g *Games) Open(id string) (f store.Finished, r *replay.Replay, err error) {
	if f, err = g.Find(id); err != nil {
		return f, nil, err
	}
	if err := g.checkDaily(f); err != nil {
		return store.Finished{}, nil, err
	}
	rec := RecordOf(f)
	_, err = replay.Verify(rec, g.data)
	switch {
	case errors.Is(err, replay.ErrOtherRules), errors.Is(err, replay.ErrNoHistory):
		return f, nil, err
	case err != nil: // ErrDamaged, ErrMismatch
		return store.Finished{}, nil, g.setAside(f.ID, err)
	}
	r, err = replay.New(rec, g.data)
	if err != nil { // Verify has just read it
		return store.Finished{}, nil, g.setAside(f.ID, err)
	}
	return f, r, nil
}

// checkDaily checks that daily game f's date is a day and its seed that
// day's on this host (game.DailySeed of the store's secret), or, for a
// game of before the secret, the public formula's (game.PublicDailySeed:
// those days are over and were public anyway). A record that fails is
// quarantined (ErrHistoryDamaged). A game of its own passes.
func (g *Games) checkDaily(f store.Finished) error {
	date := f.Score.Daily
	if date == "" {
		return nil
	}
	if !store.ValidDaily(date) {
		return g.setAside(f.ID, fmt.Errorf("%w: daily date %q", replay.ErrMismatch, date))
	}
	secret, err := g.st.DailySecret()
	if err != nil {
		return err
	}
	if seed := f.Record.Seed; seed != game.DailySeed(secret, date) && seed != game.PublicDailySeed(date) {
		return g.setAside(f.ID, fmt.Errorf("%w: seed %d is not the daily seed of %s", replay.ErrMismatch, seed, date))
	}
	return nil
}

// List returns up to Listed finished games of name (every
// player's for ""), newest first, for `replays`: a record that cannot be
// decoded is quarantined (and logged) and the rest listed.
func (g *Games) List(name string) ([]store.Finished, error) {
	games, err := g.st.FinishedGames(name, Listed)
	var bad *store.UnreadableFinished
	if !errors.As(err, &bad) {
		return games, err
	}
	for _, id := range bad.IDs {
		g.setAside(id, bad.Cause) // logs it; the list goes on either way
	}
	return games, nil
}

// RecordOf returns what a replay needs of f.
func RecordOf(f store.Finished) replay.Record {
	return replay.Record{Seed: f.Record.Seed, Rules: f.Record.Rules, History: f.Record.History, Hash: f.Record.Hash,
		Points: f.Score.Points, Cause: f.Score.Cause, Daily: f.Score.Daily}
}

// WriteList prints finished games, newest first: id, name, score,
// cause, depth, turns, date, and "cheated" for a game with cheats.
// A daily game of a day not over at now is listed with a note saying
// when its replay opens; a game whose score an admin removed says so.
func WriteList(w io.Writer, games []store.Finished, name string, now time.Time) {
	if len(games) == 0 {
		if name != "" {
			fmt.Fprintf(w, "No finished games of %s.\n", Echoed(name))
		} else {
			fmt.Fprintln(w, "No finished games yet.")
		}
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tSCORE\tCAUSE\tDEPTH\tTURNS\tDATE\t")
	for _, f := range games {
		sc, mark := f.Score, Marks(f, now)
		fmt.Fprintf(tw, "%d\t%s\t%d\t%s\t%d\t%d\t%s\t%s\n", f.ID, tui.Inert(sc.Name), sc.Points, tui.Inert(game.ThirdPerson(sc.Cause)),
			sc.Depth, sc.Turns, sc.Date.UTC().Format("2006-01-02 15:04"), mark)
	}
	tw.Flush()
}

// EchoedMax is how many characters of what a player typed (a name) a
// command's answer repeats at most.
const EchoedMax = 40

// Echoed is s, typed by a player, as an answer repeats it: inert, cut to
// EchoedMax characters with "…" (a 5,000-character name is not echoed
// whole; tester).
func Echoed(s string) string {
	if r := []rune(s); len(r) > EchoedMax {
		s = string(r[:EchoedMax-1]) + "…"
	}
	return tui.Inert(s)
}

// WriteDump prints finished game f's account: a line naming the game,
// then the dump kept with it.
func WriteDump(w io.Writer, f store.Finished) {
	mark := ""
	if f.Score.Cheated {
		mark = ", cheated"
	}
	fmt.Fprintf(w, "Game #%d, ended %s UTC%s.\n", f.ID, f.Score.Date.UTC().Format("2006-01-02 15:04"), mark)
	if f.Record.Dump == "" {
		fmt.Fprintf(w, "%s: %d points, %s. Depth %d, %s.\n(No account was kept of this game.)\n",
			tui.Inert(f.Score.Name), f.Score.Points, tui.Inert(game.ThirdPerson(f.Score.Cause)), f.Score.Depth, turns(f.Score.Turns))
		return
	}
	for i, line := range strings.SplitAfter(strings.TrimSuffix(f.Record.Dump, "\n"), "\n") {
		line = strings.TrimSuffix(line, "\n")
		if i == 0 {
			line = renamed(line, f.Score.Name)
		}
		fmt.Fprintln(w, tui.Inert(line)) // a name or message sent no escape
	}
}

// renamed is a dump's first line ("NAME: 1203 points, …", written when the
// game ended) under name, the one the game is kept under now: an admin's
// rename reaches the account too (a community tester read the old name in
// `dump` after a rename).
func renamed(first, name string) string {
	if i := strings.Index(first, ": "); i > 0 && name != "" && tui.ValidName(first[:i]) {
		return name + first[i:]
	}
	return first
}

// Sentence returns msg, a Problem line, as a sentence: upper case first,
// a full stop last.
func Sentence(msg string) string {
	if msg = upper(msg); !strings.HasSuffix(msg, ".") {
		msg += "."
	}
	return msg
}

// Problem is the one line `dump` prints for err, a Find error,
// in a player's words.
func Problem(err error, id string) string {
	switch {
	case errors.Is(err, ErrNoSuchGame):
		return fmt.Sprintf("no finished game %q; `replays` lists them", Echoed(id))
	case errors.Is(err, ErrDailyNotOver):
		return ErrDailyNotOver.Error()
	case errors.Is(err, ErrHistoryDamaged):
		return fmt.Sprintf("game %s is damaged and cannot be shown; it has been set aside for the host", Echoed(id))
	}
	return "the finished games cannot be read right now"
}

// WebProblem is Problem for a web page, which cannot point at an SSH
// command: an unknown game points at the pages that link the games kept.
func WebProblem(err error, id string) string {
	if errors.Is(err, ErrNoSuchGame) {
		return fmt.Sprintf("no finished game %q is kept here; the front page's scores and the players' pages link the games that are", Echoed(id))
	}
	return Problem(err, id)
}

// turns is n turns in English: "1 turn", "3 turns".
func turns(n int) string {
	if n == 1 {
		return "1 turn"
	}
	return fmt.Sprintf("%d turns", n)
}

// upper returns s with its first letter in upper case (ASCII).
func upper(s string) string {
	if s != "" && s[0] >= 'a' && s[0] <= 'z' {
		return string(s[0]-'a'+'A') + s[1:]
	}
	return s
}
