package web

// This file: the watch WebSocket, /watch/{game}/ws?cols=N&rows=N. Its page
// is drawn by the game's shared watch-only program of its size (mirror.go)
// on a bridge (bridge.go), counted as a watcher of the game (Live.Watch),
// the newest frame only; the game's chat goes on the same socket as text
// messages (chat.go). Limits: MaxWatchers pages at
// once, MaxMessage bytes a message, Config.WriteTimeout a write, a program
// no larger than tui.MaxWidth x tui.MaxHeight, a resize per
// winsize.Interval at most (bridge.go).

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/coder/websocket"

	"github.com/grotto-game/grotto/game/frame"
	"github.com/grotto-game/grotto/game/tui"
)

// endGrace is how long a watch page keeps its connection once the game has
// ended, so that its last screen (saying how) is drawn before the close.
const endGrace = 500 * time.Millisecond

// WatchFPS is the most frames per second a watch page is drawn at (or
// Config.FPS, if lower). A watcher needs no more, and a page's program
// costs CPU at its frame rate even while nothing moves (Bubble Tea's
// renderer ticks: docs/performance.md, "What the limits are"); in one
// pair of runs with 2,000 watch pages joining, 10 rather than 30 took the
// players' key→frame p99 from 2.7–3.6 s to 1.0–1.1 s (docs/performance.md,
// "Watchers").
const WatchFPS = 10

// watchSocket serves a watch page's WebSocket: 404 for a game not live,
// 400 for a size that is not two whole numbers from 1; closed at once with
// status 1013 and the reason when MaxWatchers pages are open. A hidden
// game (today's daily, tui.LiveGame.Hidden) is accepted and closed at once
// with 1008 and tui.HiddenWhy, as is a watch whose game becomes hidden.
// The connection closes with status 1000 "The game has ended." once the
// game ends, 1001 ShutdownWatch at Shutdown, 1013 when Config.Gate
// refuses it (the address's limits), 1008 when the page reads too slowly
// (Config.WriteTimeout), 1003 for a message that is not a resize and 1009
// for one over MaxMessage bytes.
func (s *Server) watchSocket(w http.ResponseWriter, r *http.Request) {
	cols, okC := dimension(r.URL.Query().Get("cols"), tui.MaxWidth)
	rows, okR := dimension(r.URL.Query().Get("rows"), tui.MaxHeight)
	if !okC || !okR {
		http.Error(w, "cols and rows must be whole numbers from 1", http.StatusBadRequest)
		return
	}
	g, ok := s.game(r.PathValue("game"))
	if !ok {
		s.notFound(w, "No game "+strconv.Quote(r.PathValue("game"))+" is being played here now: it may have ended.")
		return
	}
	done, ok := s.admitViewer(w, r, "watch")
	if !ok {
		return
	}
	defer done()
	// A crowd joins at Config.JoinsPerSec: each waits its turn, within
	// JoinWait (rate.Limiter.Wait refuses at once a wait that would be
	// longer), holding its place among the watchers meanwhile.
	wait, cancel := context.WithTimeout(r.Context(), s.cfg.JoinWait)
	err := s.joins.Wait(wait)
	cancel()
	if err != nil {
		refuse(w, r, errors.New(TooManyJoining))
		return
	}
	if g.Hidden {
		s.refuseHidden(w, r)
		return
	}
	fp, hint := s.chatSpeaker(r) // before Accept, which takes the request
	frames, stop, ok := s.cfg.Live.Watch(g.ID)
	if !ok {
		if s.hidden(g.ID) { // it began today's daily meanwhile
			s.refuseHidden(w, r)
			return
		}
		s.notFound(w, "That game has just ended.")
		return
	}
	defer stop()
	conn, err := websocket.Accept(w, r, nil) // same origin only (the library's default)
	if err != nil {
		return // Accept has answered
	}
	b := newBridge(s.ctx, conn, s.cfg.WriteTimeout)
	defer b.finish()
	s.openChat(b, g.ID, fp, hint)                     // chat.go
	s.watchShared(b, g, frames, pageSize(cols, rows)) // mirror.go
}

// hidden reports whether game id is listed now as hidden
// (tui.LiveGame.Hidden).
func (s *Server) hidden(id uint64) bool {
	g, ok := s.game(strconv.FormatUint(id, 10))
	return ok && g.Hidden
}

// refuseHidden accepts a watch WebSocket of a hidden game only to close
// it with 1008 and tui.HiddenWhy, which the page shows: a browser reads
// no body of a refused upgrade.
func (s *Server) refuseHidden(w http.ResponseWriter, r *http.Request) {
	conn, err := websocket.Accept(w, r, nil)
	if err != nil {
		return // Accept has answered
	}
	conn.Close(websocket.StatusPolicyViolation, tui.HiddenWhy)
}

// dimension parses a terminal size from a query: a whole number from 1,
// capped at most.
func dimension(text string, most int) (int, bool) {
	n, err := strconv.Atoi(text)
	if err != nil || n < 1 {
		return 0, false
	}
	return min(n, most), true
}

// oneGame is the tui.Lobby of a watch page: it watches the one game the
// page subscribed to and lists the live games (so that the page can say
// why a game it watched became hidden); the rest does nothing.
type oneGame struct {
	frames <-chan *frame.Frame
	stop   func()
	live   Live
}

func (o oneGame) Watch(uint64) (<-chan *frame.Frame, func(), bool) { return o.frames, o.stop, true }
func (o oneGame) Games() []tui.LiveGame {
	if o.live == nil {
		return nil
	}
	return o.live.Games()
}
func (oneGame) Mine() (tui.LiveGame, bool)                           { return tui.LiveGame{}, false }
func (oneGame) Watchers() int                                        { return 0 }
func (oneGame) Publish(tui.Activity, int, int, string, *frame.Frame) {}
func (oneGame) TakeOver() error                                      { return nil }
func (oneGame) ClaimName(string) error                               { return nil }
func (oneGame) Cheat(string)                                         {}

// Chat implements tui.Lobby: the page's terminal shows no chat; the
// page's own chat box reads it and, for a browser tied to a key, says
// lines (chat.go).
func (oneGame) Chat(uint64) (tui.ChatRoom, bool) { return nil, false }

// Refusals of a watch or replay page, the close reasons (status 1013) its
// page shows.
var (
	// errTooManyWatchers: Config.MaxWatchers pages are open (the
	// watchers' budget, --max-watchers).
	errTooManyWatchers = errors.New("Too many people are watching right now; please try again later.")
	// errTooManyReplays: Config.MaxReplays replay pages are open (the
	// replays' budget, --max-replays).
	errTooManyReplays = errors.New(TooManyReplays)
	// errShuttingDown: the web server is shutting down.
	errShuttingDown = errors.New("The server is shutting down; reload the page later.")
)

// TooManyReplays is the close reason (status 1013) of a replay page past
// Config.MaxReplays.
const TooManyReplays = "Too many replays are playing right now; please try again later."

// admitViewer lets a watch or replay page (kind "watch" or "replay") in:
// within its address's limits (enter), a free slot of its budget
// (Config.MaxWatchers for a watch page, Config.MaxReplays for a replay
// page) and not while the server shuts down. It refuses the page, saying why (refuse: the
// WebSocket closed at once with status 1013 and the reason, which the page
// shows), and returns ok false, or returns done, which gives everything
// back once the page has gone.
func (s *Server) admitViewer(w http.ResponseWriter, r *http.Request, kind string) (done func(), ok bool) {
	leave, tooMany := s.enter(r)
	if tooMany != nil {
		refuse(w, r, tooMany)
		return nil, false
	}
	slots, most, full := s.slots, s.cfg.MaxWatchers, errTooManyWatchers
	if kind == "replay" {
		slots, most, full = s.replays, s.cfg.MaxReplays, errTooManyReplays
	}
	select {
	case slots <- struct{}{}:
	default:
		leave()
		s.fullSaid.Do(func() { // a flood of refusals is one line per 10 s
			s.log.Warn("web: "+kind+" pages were refused: too many open (said at most once per 10 s)", "max", most)
		})
		refuse(w, r, full)
		return nil, false
	}
	if !s.startWatching() {
		<-slots
		leave()
		refuse(w, r, errShuttingDown)
		return nil, false
	}
	return func() {
		s.socks.Done()
		<-slots
		leave()
	}, true
}
