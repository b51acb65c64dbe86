package web

// This file: the HTML pages (the front page, a watch page, not found), from
// html/template, which escapes every name a player chose.

import (
	"bytes"
	"html/template"
	"net/http"
	"strconv"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/tui"
)

// pages are the parsed templates.
type pages struct{ t *template.Template }

func parsePages() (*pages, error) {
	t, err := template.New("pages").Funcs(template.FuncMap{
		"gamesOf": func(rows []playerGame, replays bool) gamesData { return gamesData{Rows: rows, Replays: replays} },
	}).ParseFS(templates, "templates/*.html")
	if err != nil {
		return nil, err
	}
	return &pages{t: t}, nil
}

// scoreRow is one row of the front page's score table.
type scoreRow struct {
	Rank, Points, Depth, Turns int
	Name, Cause, Date          string
	GameID                     uint64 // its replay, /replay/GameID; 0 for none
}

// gameRow is one row of the front page's live games.
type gameRow struct {
	ID                      uint64
	Name, Depth, Turn, Idle string
	Watchers                int
	// NoGame: no game in play (tui.LiveGame.InPlay): Doing (on the
	// title, game over, won, watching NAME: tui.Activity.Text, inert)
	// spans the depth and turn, and there is no watch link.
	NoGame bool
	Doing  string
	Hidden bool // today's daily (tui.LiveGame.Hidden): no watch link
	// Player: the name is a player's claimed name (not "(new player)"),
	// linked to its page when the pages are served.
	Player bool
}

// indexData is what the front page shows.
type indexData struct {
	Scores      []scoreRow
	ScoresError bool   // the scores could not be read
	Replays     bool   // a score has a replay: the table has a column for the links
	Players     bool   // names link to the players' pages (Config.Careers)
	SSH         string // what to type to play: "ssh -p 2222 play.example.org"
	Games       []gameRow
	// Hidden, when a game is hidden, says why under the list
	// (tui.HiddenList); "" when none is. HiddenNote marks such a game's
	// row (tui.HiddenNote).
	Hidden, HiddenNote string
	// EventsOn lists the live events (Config.Events); Events are the
	// newest, newest first (events.go).
	EventsOn bool
	Events   []eventRow
}

// index serves the front page: the top scores and the live games.
func (s *Server) index(w http.ResponseWriter, r *http.Request) {
	d := indexData{Players: s.cfg.Careers != nil, SSH: s.sshCommand()}
	scores, err := s.cfg.Scores.TopScores(TopScores)
	if err != nil {
		s.log.Error("web: the scores cannot be read", "err", err)
		d.ScoresError = true
	}
	for i, sc := range scores {
		d.Scores = append(d.Scores, scoreRow{Rank: i + 1, Name: tui.Inert(sc.Name), Points: sc.Points, Depth: sc.Depth,
			Turns: sc.Turns, Cause: tui.Inert(game.ThirdPerson(sc.Cause)), Date: sc.Date.UTC().Format("2006-01-02")})
		if s.cfg.Replays != nil && sc.GameID != 0 {
			d.Scores[i].GameID, d.Replays = sc.GameID, true
		}
	}
	now := s.cfg.Now()
	for _, g := range s.cfg.Live.Games() {
		name, depth, turn, idle := g.Columns(now)
		// Only a game in play gets a watch link: a session on the title,
		// watching another or on its game's end has no live game to
		// follow from here.
		d.Games = append(d.Games, gameRow{ID: g.ID, Name: name, Depth: depth, Turn: turn, Idle: idle,
			Watchers: g.Watchers, NoGame: !g.InPlay(), Doing: g.Activity.Text(), Hidden: g.Hidden, Player: tui.ValidName(g.Name)})
		if g.Hidden {
			d.Hidden = tui.HiddenList
		}
	}
	d.HiddenNote = tui.HiddenNote
	d.EventsOn, d.Events = s.cfg.Events != nil, s.eventRows()
	s.render(w, http.StatusOK, "index.html", d)
}

// watchData is what a watch page shows before its script draws the game.
type watchData struct {
	ID   uint64
	Name string
}

// watchPage serves the page that draws game {game} (watch.js connects its
// WebSocket); an unknown game gets the not-found page, a hidden one
// (today's daily, tui.LiveGame.Hidden) the refusal page (403) saying why.
func (s *Server) watchPage(w http.ResponseWriter, r *http.Request) {
	g, ok := s.game(r.PathValue("game"))
	if !ok {
		s.notFound(w, "No game "+strconv.Quote(r.PathValue("game"))+" is being played here now: it may have ended.")
		return
	}
	if g.Hidden {
		s.refuse(w, http.StatusForbidden, tui.HiddenWhy)
		return
	}
	name, _, _, _ := g.Columns(s.cfg.Now())
	s.render(w, http.StatusOK, "watch.html", watchData{ID: g.ID, Name: name})
}

// game returns the live game whose id is text, if any.
func (s *Server) game(text string) (tui.LiveGame, bool) {
	id, err := strconv.ParseUint(text, 10, 64)
	if err != nil {
		return tui.LiveGame{}, false
	}
	for _, g := range s.cfg.Live.Games() {
		if g.ID == id {
			return g, true
		}
	}
	return tui.LiveGame{}, false
}

// refusal is what the refusal page says: Why, then, when Command is not
// "", "Run", Command in a <code> element, and Then.
type refusal struct{ Why, Command, Then string }

// refuse serves the refusal page with status and why.
func (s *Server) refuse(w http.ResponseWriter, status int, why string) {
	s.render(w, status, "refused.html", refusal{Why: why})
}

// refuseToLink serves the refusal page with status and why, then tells
// the visitor to run the command that prints a play link (sshWeb), and
// then: "Run <code>ssh -p 2222 play.example.org web</code> for a new one."
func (s *Server) refuseToLink(w http.ResponseWriter, status int, why, then string) {
	s.render(w, status, "refused.html", refusal{Why: why, Command: s.sshWeb(), Then: then})
}

// notFound serves the not-found page (status 404) saying why.
func (s *Server) notFound(w http.ResponseWriter, why string) {
	s.render(w, http.StatusNotFound, "notfound.html", why)
}

// render executes template name into a buffer first, so that a failure
// sends a plain 500 rather than half a page.
func (s *Server) render(w http.ResponseWriter, status int, name string, data any) {
	var b bytes.Buffer
	if err := s.pages.t.ExecuteTemplate(&b, name, data); err != nil {
		s.log.Error("web: page", "page", name, "err", err)
		http.Error(w, "grotto could not draw this page.", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(b.Bytes())
}
