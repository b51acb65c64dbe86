package finished

// This file: a player's page (`ssh host player NAME`, /player/NAME on the
// web): what their finished games add up to, computed from the store's
// index of a key's games (store.Replays.KeyGames), never from the list of
// every game.

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/tui"
	"github.com/grotto-game/grotto/store"
)

// Shown on a player page: how many of the last games, daily games and
// causes of death.
const (
	CareerLast   = 10
	CareerDaily  = 10
	CareerCauses = 5
)

// ErrNoSuchPlayer is returned by Career for a name no key holds.
var ErrNoSuchPlayer = errors.New("no such player")

// Cause is one way a player's games ended and how many ended so.
type Cause struct {
	Cause string // "killed by an orc": the cause without where (" on depth 2") or the blow
	Games int
}

// Career is what a player's finished games add up to.
type Career struct {
	// Name is the player's name now.
	Name string
	// Games counts every finished game kept; Wins those escaped; Cheated
	// those with cheats, which count in Games but nowhere else.
	Games, Wins, Cheated int
	// Best is the best score among games that are on the tables (not
	// cheated, not removed by an admin), nil for none.
	Best *store.Finished
	// Deepest is the deepest depth reached in a game without cheats, 0
	// for none.
	Deepest int
	// Causes are the most common ways the player died, most first (ties:
	// the most recent first), at most CareerCauses.
	Causes []Cause
	// Streak is how many games in a row the player won, ending with the
	// last one (games with cheats left out); BestStreak the most ever.
	Streak, BestStreak int
	// Last are the most recent games, newest first (at most CareerLast);
	// Dailies the most recent daily challenges (at most CareerDaily).
	Last, Dailies []store.Finished
}

// CareerOf adds up games (one key's, oldest first, as KeyGames returns
// them) for the player called name.
func CareerOf(name string, games []store.Finished) Career {
	c := Career{Name: name, Games: len(games)}
	type count struct {
		n    int
		last int // the index of the latest game that ended so
	}
	causes := map[string]*count{}
	run := 0
	for i, f := range games {
		if f.Score.Cheated {
			c.Cheated++
			continue
		}
		c.Deepest = max(c.Deepest, f.Score.Depth)
		if f.Record.Won {
			c.Wins++
			run++
			c.BestStreak = max(c.BestStreak, run)
		} else {
			run = 0
			why := causeOf(f.Score.Cause)
			if causes[why] == nil {
				causes[why] = &count{}
			}
			causes[why].n++
			causes[why].last = i
		}
		if !f.Score.Removed && (c.Best == nil || f.Score.Points > c.Best.Score.Points) {
			best := f
			c.Best = &best
		}
	}
	c.Streak = run
	for why, n := range causes { // sorted below: the order of the map does not show
		c.Causes = append(c.Causes, Cause{Cause: why, Games: n.n})
	}
	slices.SortFunc(c.Causes, func(a, b Cause) int {
		if d := cmp.Compare(b.Games, a.Games); d != 0 {
			return d
		}
		return cmp.Compare(causes[b.Cause].last, causes[a.Cause].last)
	})
	c.Causes = c.Causes[:min(len(c.Causes), CareerCauses)]
	for i := len(games) - 1; i >= 0 && (len(c.Last) < CareerLast || len(c.Dailies) < CareerDaily); i-- {
		if len(c.Last) < CareerLast {
			c.Last = append(c.Last, games[i])
		}
		if games[i].Score.Daily != "" && len(c.Dailies) < CareerDaily {
			c.Dailies = append(c.Dailies, games[i])
		}
	}
	return c
}

// causeOf is cause without where it happened or the blow: "killed by an
// orc on depth 2 (it hit you for 5)" is "killed by an orc".
func causeOf(cause string) string {
	if i := strings.Index(cause, " on depth "); i > 0 {
		cause = cause[:i]
	}
	if i := strings.Index(cause, " ("); i > 0 {
		cause = cause[:i]
	}
	return game.ThirdPerson(cause)
}

// Career returns the page of the player called name (without regard to
// case), or who last played a game under that name when no one holds it
// now (the score tables keep the names games were played under):
// ErrNoSuchPlayer when neither, else the store's error.
func (g *Games) Career(name string) (Career, error) {
	fp, err := g.st.NameHolder(name)
	if err != nil {
		return Career{}, err
	}
	if fp == "" {
		// A name no one holds now may be one a player had: the scores
		// and games keep the name they were played under.
		was, err := g.st.FinishedGames(name, 1)
		if err != nil && len(was) == 0 {
			return Career{}, err
		}
		if len(was) == 0 {
			return Career{}, ErrNoSuchPlayer
		}
		fp = was[0].Score.Fingerprint
	}
	p, err := g.st.Profile(fp)
	if err != nil {
		return Career{}, err
	}
	games, err := g.st.KeyGames(fp)
	if err != nil {
		return Career{}, err
	}
	return CareerOf(p.Name, games), nil
}

// WriteCareer prints c as `ssh host player NAME` shows it; now says
// whether a daily's day is over (its replay opens after it).
func WriteCareer(w io.Writer, c Career, now time.Time) {
	fmt.Fprintf(w, "%s\n\n", tui.Inert(c.Name))
	if c.Games == 0 {
		fmt.Fprintln(w, "No finished games yet.")
		return
	}
	deepest := "-" // every game with cheats: none counts
	if c.Deepest > 0 {
		deepest = fmt.Sprintf("depth %d", c.Deepest)
	}
	fmt.Fprintf(w, "Games: %d   Wins: %d   Streak: %d (best %d)   Deepest: %s", c.Games, c.Wins, c.Streak, c.BestStreak, deepest)
	if c.Cheated > 0 {
		fmt.Fprintf(w, "   With cheats: %d", c.Cheated)
	}
	fmt.Fprintln(w)
	if c.Best != nil {
		fmt.Fprintf(w, "Best score: %d (game %d, depth %d, %s)\n", c.Best.Score.Points, c.Best.ID, c.Best.Score.Depth,
			c.Best.Score.Date.UTC().Format("2006-01-02"))
	}
	if len(c.Causes) > 0 {
		fmt.Fprintln(w, "\nMost common deaths:")
		for _, k := range c.Causes {
			fmt.Fprintf(w, "  %3d  %s\n", k.Games, tui.Inert(k.Cause))
		}
	}
	fmt.Fprintln(w, "\nLast games (replay ID, dump ID):")
	writeGames(w, c.Last, now)
	if len(c.Dailies) > 0 {
		fmt.Fprintln(w, "\nDaily challenges:")
		writeGames(w, c.Dailies, now)
	}
}

// writeGames prints games as a table: ID, score, depth, turns, how it
// ended, date, and marks.
func writeGames(w io.Writer, games []store.Finished, now time.Time) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  ID\tSCORE\tDEPTH\tTURNS\tHOW IT ENDED\tDATE\t")
	for _, f := range games {
		how := "escaped"
		if !f.Record.Won {
			how = tui.Inert(game.ThirdPerson(f.Score.Cause))
		}
		fmt.Fprintf(tw, "  %d\t%d\t%d\t%d\t%s\t%s\t%s\n", f.ID, f.Score.Points, f.Score.Depth, f.Score.Turns, how,
			f.Score.Date.UTC().Format("2006-01-02"), Marks(f, now))
	}
	tw.Flush()
}

// Marks is what a list of games says beside f: cheated, the daily of a
// day (and, before the day is over, that its replay opens after it), a
// score an admin removed; "" for none.
func Marks(f store.Finished, now time.Time) string {
	var marks []string
	if f.Score.Cheated {
		marks = append(marks, "cheated")
	}
	if d := f.Score.Daily; d != "" {
		m := "daily " + tui.Inert(d)
		if !DailyOver(d, now) {
			m += ": its replay opens after 00:00 UTC"
		}
		marks = append(marks, m)
	}
	if f.Score.Removed {
		marks = append(marks, "score removed by an admin")
	}
	return strings.Join(marks, ", ")
}
