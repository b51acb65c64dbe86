package web

// This file: a player's page, /player/{name}: their record, most common
// deaths, last games and daily challenges (finished.Career), with replay
// links.

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/tui"
	"github.com/grotto-game/grotto/server/finished"
	"github.com/grotto-game/grotto/store"
)

// Careers is what a player's page reads: finished.Games.
type Careers interface {
	// Career returns the page of the player called name (any case), or
	// finished.ErrNoSuchPlayer.
	Career(name string) (finished.Career, error)
}

// playerGame is one row of a player page's tables.
type playerGame struct {
	ID                   uint64
	Points, Depth, Turns int
	How, Date, Marks     string
	Replay               bool // its replay may be opened now (a daily's only after its day)
}

// playerData is what a player page shows.
type playerData struct {
	Name                                              string
	Games, Wins, Cheated, Streak, BestStreak, Deepest int
	Best                                              *playerGame
	Causes                                            []finished.Cause
	Last, Dailies                                     []playerGame
	Replays                                           bool // the server serves replay pages
}

// gamesData is what the "games" template draws.
type gamesData struct {
	Rows    []playerGame
	Replays bool
}

// playerRow is f as a player page's row, at now.
func playerRow(f store.Finished, now time.Time) playerGame {
	how := "escaped"
	if !f.Record.Won {
		how = tui.Inert(game.ThirdPerson(f.Score.Cause))
	}
	return playerGame{ID: f.ID, Points: f.Score.Points, Depth: f.Score.Depth, Turns: f.Score.Turns, How: how,
		Date: f.Score.Date.UTC().Format("2006-01-02"), Marks: finished.Marks(f, now),
		Replay: f.Score.Daily == "" || finished.DailyOver(f.Score.Daily, now)}
}

// playerPage serves /player/{name}: 404 for a name no one holds, 503 when
// the games cannot be read.
func (s *Server) playerPage(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	c, err := s.cfg.Careers.Career(name)
	switch {
	case errors.Is(err, finished.ErrNoSuchPlayer) || (err == nil && c.Name == ""):
		s.notFound(w, "No player is called "+strconv.Quote(finished.Echoed(name))+" here.")
		return
	case err != nil:
		s.log.Error("web: a player's games cannot be read", "err", err)
		s.refuse(w, http.StatusServiceUnavailable, "The player's games cannot be read right now; try again later.")
		return
	}
	now := s.cfg.Now()
	d := playerData{Name: tui.Inert(c.Name), Games: c.Games, Wins: c.Wins, Cheated: c.Cheated, Streak: c.Streak,
		BestStreak: c.BestStreak, Deepest: c.Deepest, Replays: s.cfg.Replays != nil}
	if c.Best != nil {
		b := playerRow(*c.Best, now)
		d.Best = &b
	}
	for _, k := range c.Causes {
		d.Causes = append(d.Causes, finished.Cause{Cause: tui.Inert(k.Cause), Games: k.Games})
	}
	for _, f := range c.Last {
		d.Last = append(d.Last, playerRow(f, now))
	}
	for _, f := range c.Dailies {
		d.Dailies = append(d.Dailies, playerRow(f, now))
	}
	s.render(w, http.StatusOK, "player.html", d)
}
