package web

// This file: the replay page, /replay/{id} (and /replay/{id}.cast, the
// download of its recording: cast.go), and its WebSocket,
// /replay/{id}/ws?cols=N&rows=N. It plays a finished game back
// in xterm.js with the replay player of `ssh -t host replay ID`
// (tui.NewReplayer) on a bridge (bridge.go); the page sends the replay's
// keys only, as text messages {"key":"space"}, besides its resizes.
// Counted against MaxReplays (the replays' budget, apart from the
// watchers'); its keys are read at most ReplayKeysPerSec a second.

import (
	"net/http"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/coder/websocket"
	"golang.org/x/time/rate"

	"github.com/grotto-game/grotto/game/tui"
)

// Replays opens finished games for the replay pages; the server
// implements it.
type Replays interface {
	// ReplayGame returns finished game id (digits, as in the address)
	// ready to play back, or with Replay nil and Why set when it cannot
	// be (its dump is shown). err, in a visitor's words, means there is
	// no such game to show.
	ReplayGame(id string) (tui.ReplayGame, error)
	// ReplayTitle returns the name of finished game id's player, without
	// decoding or replaying its record (the replay page, and a replay
	// socket before it is admitted): cheap enough for any visitor. err,
	// in a visitor's words, is as ReplayGame's would be for a game that
	// cannot be shown (no such game, a daily not over yet).
	ReplayTitle(id string) (name string, err error)
}

// replayKeys are the keys a replay page may send, by name, and the key
// press each is to the replay player: no other key reaches it.
var replayKeys = map[string]tea.KeyPressMsg{
	"space": {Code: tea.KeySpace, Text: " "},
	"+":     {Code: '+', Text: "+"},
	"-":     {Code: '-', Text: "-"},
	".":     {Code: '.', Text: "."},
	"right": {Code: tea.KeyRight},
	">":     {Code: '>', Text: ">"},
	"G":     {Code: 'g', ShiftedCode: 'G', Text: "G", Mod: tea.ModShift},
	"end":   {Code: tea.KeyEnd},
	"q":     {Code: 'q', Text: "q"},
	"up":    {Code: tea.KeyUp},
	"down":  {Code: tea.KeyDown},
	"?":     {Code: '?', Text: "?"}, // the replay's keys, and back
}

// replayData is what a replay page shows before its script draws it.
type replayData struct {
	ID   string
	Name string
	SSH  string // the command that reaches the SSH server (sshCommand)
	Cast bool   // the recording can be downloaded (/replay/{id}.cast)
}

// replayPage serves the page that plays finished game {id} back
// (replay.js connects its WebSocket); an unknown game gets the not-found
// page, saying why.
func (s *Server) replayPage(w http.ResponseWriter, r *http.Request) {
	if id, ok := strings.CutSuffix(r.PathValue("id"), ".cast"); ok && s.cfg.Casts != nil { // a pattern's wildcard is a whole segment
		s.castDownload(w, r, id)
		return
	}
	name, err := s.cfg.Replays.ReplayTitle(r.PathValue("id"))
	if err != nil {
		s.notFound(w, err.Error())
		return
	}
	s.render(w, http.StatusOK, "replay.html", replayData{ID: r.PathValue("id"), Name: tui.Inert(name), SSH: s.sshCommand(), Cast: s.cfg.Casts != nil})
}

// replaySocket serves a replay page's WebSocket: 404 for a game that
// cannot be shown, 400 for a size that is not two whole numbers from 1;
// closed at once with 1013 and TooManyReplays when MaxReplays pages are open.
// It closes with 1000 "The replay
// has ended." when the viewer leaves it (q), 1001 at Shutdown, 1003 for a
// message that is neither a resize nor a replay key, and 1013 when
// Config.Gate refuses it (the address's limits).
func (s *Server) replaySocket(w http.ResponseWriter, r *http.Request) {
	cols, okC := dimension(r.URL.Query().Get("cols"), tui.MaxWidth)
	rows, okR := dimension(r.URL.Query().Get("rows"), tui.MaxHeight)
	if !okC || !okR {
		http.Error(w, "cols and rows must be whole numbers from 1", http.StatusBadRequest)
		return
	}
	if _, err := s.cfg.Replays.ReplayTitle(r.PathValue("id")); err != nil { // refused before anything is loaded
		s.notFound(w, err.Error())
		return
	}
	done, ok := s.admitViewer(w, r, "replay")
	if !ok {
		return
	}
	defer done()
	rg, err := s.cfg.Replays.ReplayGame(r.PathValue("id")) // admitted: the whole record, verified
	if err != nil {
		s.notFound(w, err.Error())
		return
	}
	conn, err := websocket.Accept(w, r, nil) // same origin only (the library's default)
	if err != nil {
		return
	}
	b := newBridge(s.ctx, conn, s.cfg.WriteTimeout)
	b.keys = replayKeys
	b.keyRate = rate.NewLimiter(ReplayKeysPerSec, ReplayKeyBurst)
	defer b.finish()
	go func() {
		select {
		case <-s.ctx.Done():
			b.close(websocket.StatusGoingAway, ShutdownReplay)
		case <-b.ctx.Done():
		}
	}()
	var model tea.Model = tui.NewReplayer(rg, s.cfg.Data)
	if s.replayModel != nil {
		model = s.replayModel(model)
	}
	if err := b.run(model, cols, rows, s.cfg.FPS, s.register); err != nil && b.ctx.Err() == nil {
		s.log.Warn("web: a replay page's program failed", "err", err)
	}
	b.close(websocket.StatusNormalClosure, "The replay has ended.")
}
