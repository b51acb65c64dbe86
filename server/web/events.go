package web

// This file: the live events on the front page (server/events): the last
// few, in words, drawn with the page, and GET /events/recent.json, which
// the page's script (assets/events.js) asks every EventsPoll for the same
// rows, so that the list stays live with short requests under the usual
// limits (limits.go) rather than a connection held open per visitor.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/tui"
	"github.com/grotto-game/grotto/server/events"
)

// EventsShown is how many events the front page lists, newest first.
const EventsShown = 10

// EventsPoll is how often the front page asks for the newest events; keep
// it equal to events.js's poll.
const EventsPoll = 5 * time.Second

// eventRow is one event as the front page lists it.
type eventRow struct {
	ID   string `json:"id"`
	Time string `json:"time"` // HH:MM UTC
	Text string `json:"text"` // a sentence, inert (tui.Inert): the page shows it as text
}

// eventRows returns the newest EventsShown events of the feed as rows,
// newest first; nil without Config.Events.
func (s *Server) eventRows() []eventRow {
	if s.cfg.Events == nil {
		return nil
	}
	es := s.cfg.Events()
	if len(es) > EventsShown {
		es = es[len(es)-EventsShown:]
	}
	rows := make([]eventRow, 0, len(es))
	for _, e := range slices.Backward(es) {
		rows = append(rows, eventRow{ID: e.ID, Time: e.Time.UTC().Format("15:04"), Text: tui.Inert(sentence(e))})
	}
	return rows
}

// sentence says what e tells, in words: "ann reached depth 3"; an event
// of a game with cheats says so and celebrates nothing.
func sentence(e events.Event) string {
	s := plainSentence(e)
	if e.Cheated {
		s = strings.TrimSuffix(s, "!") + " (with cheats: not on the score table)"
	}
	return s
}

// plainSentence is sentence without the cheats' mark.
func plainSentence(e events.Event) string {
	who := e.Player
	if who == "" {
		who = "someone"
	}
	daily := ""
	if e.Daily != "" {
		daily = " in the daily"
	}
	switch e.Kind {
	case events.KindStart:
		if e.Daily != "" {
			return who + " began the daily challenge of " + e.Daily
		}
		return who + " began a new game"
	case events.KindDepth:
		return fmt.Sprintf("%s reached depth %d%s", who, e.Depth, daily)
	case events.KindLevel:
		return fmt.Sprintf("%s reached character level %d%s", who, e.Level, daily)
	case events.KindKill:
		return fmt.Sprintf("%s killed %s on depth %d%s", who, game.WithArticle(e.Monster), e.Depth, daily)
	case events.KindDeath:
		return fmt.Sprintf("%s died: %s, with %d points", who, e.Cause, e.Score)
	case events.KindVictory:
		return fmt.Sprintf("%s left the grotto alive with %d points!", who, e.Score)
	case events.KindDaily:
		if e.Won {
			return fmt.Sprintf("%s won the daily challenge of %s with %d points!", who, e.Daily, e.Score)
		}
		return fmt.Sprintf("%s ended the daily challenge of %s with %d points: %s", who, e.Daily, e.Score, e.Cause)
	}
	return fmt.Sprintf("%s: %s", who, e.Kind)
}

// recentEvents answers GET /events/recent.json: the front page's rows, as
// a JSON array, newest first.
func (s *Server) recentEvents(w http.ResponseWriter, r *http.Request) {
	rows := s.eventRows()
	if rows == nil {
		rows = []eventRow{}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(rows)
}
