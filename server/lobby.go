package server

// This file: sessionLobby, one session's window on the server's lobby
// (tui.Lobby on top of server/lobby), and the delivery of lobby events to the
// session's Bubble Tea program.

import (
	"errors"
	"fmt"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/log/v2"

	"github.com/grotto-game/grotto/game/frame"
	"github.com/grotto-game/grotto/game/tui"
	"github.com/grotto-game/grotto/server/lobby"
	"github.com/grotto-game/grotto/store"
)

// sessionLobby is one session's window on the server (tui.Lobby) and the
// notifier of its slot (lobby.Notifier).
type sessionLobby struct {
	srv   *Server
	fp    string
	log   *log.Logger
	lease *sessionLease // the key's store lease as this session uses it (leases.go)

	mu   sync.Mutex
	prog *tea.Program // the session's program, once built
	slot lobby.Slot   // the session's slot, once claimed
	// elsewhere is the node that held the key's lease when this session
	// began, when another node did: its game is there (nodes.go).
	elsewhere string
	// shown is the name the key's events carry (feed.go): the stored
	// profile's at login, then the one claimed on the name screen.
	shown string
}

// setShownName sets the name the session's events carry: name, or none
// for a key that has claimed none yet (isNew: name is only a suggestion).
func (l *sessionLobby) setShownName(name string, isNew bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if isNew {
		name = ""
	}
	l.shown = name
}

// shownName returns the name the session's events carry.
func (l *sessionLobby) shownName() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.shown
}

// setProgram makes p the program that hears this session's lobby events.
func (l *sessionLobby) setProgram(p *tea.Program) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.prog = p
}

// setSlot records the slot the session claimed.
func (l *sessionLobby) setSlot(s lobby.Slot) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.slot = s
}

// setElsewhere records that node held the key's lease when the session
// began.
func (l *sessionLobby) setElsewhere(node string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.elsewhere = node
}

// held returns the session's slot, nil before it claimed one.
func (l *sessionLobby) held() lobby.Slot {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.slot
}

// id returns the session's slot id, 0 before it claimed one.
func (l *sessionLobby) id() uint64 {
	if s := l.held(); s != nil {
		return s.ID()
	}
	return 0
}

// release gives up the session's slot, if it holds one.
func (l *sessionLobby) release() {
	if s := l.held(); s != nil {
		s.Release()
	}
}

// Notify implements lobby.Notifier: each event becomes the program's message.
// Send does not block on a program that has ended, but does until one has
// started: hence the goroutine, so that one stuck session never holds up the
// lobby or the others.
func (l *sessionLobby) Notify(e lobby.Event) {
	var msg tea.Msg
	switch e {
	case lobby.ShutDown:
		msg = tui.ShutdownMsg{}
	case lobby.TakenOver:
		msg = tui.TakenOverMsg{}
	case lobby.WatchersChanged:
		msg = tui.WatchersMsg{}
	case lobby.IdleCheck:
		msg = tui.IdleCheckMsg{}
	case lobby.Kicked:
		msg = tui.KickedMsg{}
	case lobby.Banned:
		msg = tui.BannedMsg{}
	case lobby.Relist:
		msg = tui.RelistMsg{}
	default:
		return
	}
	l.send(msg)
}

// Announce implements lobby.Announcer: a host's broadcast becomes the
// program's banner (tui.BannerMsg).
func (l *sessionLobby) Announce(text string) { l.send(tui.BannerMsg{Text: text}) }

// send hands msg to the session's program, if it has one, without
// waiting (see Notify).
func (l *sessionLobby) send(msg tea.Msg) {
	l.mu.Lock()
	p := l.prog
	l.mu.Unlock()
	if p != nil {
		go p.Send(msg)
	}
}

// liveGame is how the UI lists a lobby game.
func liveGame(g lobby.Game) tui.LiveGame {
	return tui.LiveGame{ID: g.ID, Name: g.Name, Activity: uiActivity(g.Activity), Depth: g.Depth, Turn: g.Turn,
		Daily: g.Daily, LastInput: g.LastInput, Watchers: g.Watchers}
}

// uiActivity is how the UI lists what a lobby slot's session does.
func uiActivity(a lobby.Activity) tui.Activity {
	d := tui.OnTitle
	switch a.Doing {
	case lobby.Playing:
		d = tui.Playing
	case lobby.GameOver:
		d = tui.GameOver
	case lobby.Won:
		d = tui.Won
	case lobby.Watching:
		d = tui.Watching
	}
	return tui.Activity{Doing: d, Watched: a.Watched}
}

// lobbyActivity is what the lobby records of what a session does.
func lobbyActivity(a tui.Activity) lobby.Activity {
	d := lobby.OnTitle
	switch a.Doing {
	case tui.Playing:
		d = lobby.Playing
	case tui.GameOver:
		d = lobby.GameOver
	case tui.Won:
		d = lobby.Won
	case tui.Watching:
		d = lobby.Watching
	}
	return lobby.Activity{Doing: d, Watched: a.Watched}
}

// Games implements tui.Lobby: the games of every node (placement.games).
func (l *sessionLobby) Games() []tui.LiveGame {
	self := l.srv.place.gameID(l.id(), l.fp)
	var out []tui.LiveGame
	for _, g := range l.srv.place.games() {
		if g.ID != self || g.Node != l.srv.place.nodeName() {
			out = append(out, g)
		}
	}
	return out
}

// Mine implements tui.Lobby: the key's game on this node, or on the node
// that holds it (placement.mine).
func (l *sessionLobby) Mine() (tui.LiveGame, bool) {
	return l.srv.place.mine(l.fp, l.elsewhereNode(), l.storedName)
}

// Watch implements tui.Lobby: a game of this node through the lobby, one
// of another node over the node channel, the key's own game by key
// (placement.watchFor).
func (l *sessionLobby) Watch(id uint64) (<-chan *frame.Frame, func(), bool) {
	return l.srv.place.watchFor(l.fp, id, l.elsewhereNode())
}

// elsewhereNode returns the node that held the key's lease when the
// session began, "" when none other did.
func (l *sessionLobby) elsewhereNode() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.elsewhere
}

// Watchers implements tui.Lobby.
func (l *sessionLobby) Watchers() int {
	if s := l.held(); s != nil {
		return s.Watchers()
	}
	return 0
}

// Publish implements tui.Lobby: it renews the slot (the last input `who`
// shows), lists what the session does and hands the frame to its
// watchers.
func (l *sessionLobby) Publish(a tui.Activity, depth, turn int, daily string, f *frame.Frame) {
	if s := l.held(); s != nil {
		s.Renew(l.srv.clock())
		s.Publish(lobbyActivity(a), depth, turn, daily, f)
	}
}

// TakeOver implements tui.Lobby: the key's other session saves and leaves,
// here or on another node, then this one becomes the key's live session
// (placement.takeOver).
func (l *sessionLobby) TakeOver() error {
	s := l.held()
	if s == nil {
		return lobby.ErrReleased
	}
	if err := l.srv.place.takeOver(s, l.lease, l.fp, l.note, l.storedName, l.log); err != nil {
		return err
	}
	l.log.Info("took over the key's other session")
	l.srv.metrics.TakeOvers.Inc()
	return nil
}

// storedName returns the name the key's stored profile holds, "" when it has
// claimed none or the profile cannot be read: the one place a listed name
// comes from (never the SSH user name, which is only a suggestion).
func (l *sessionLobby) storedName() string {
	if p, err := l.srv.store.Profile(l.fp); err == nil {
		return p.Name
	}
	return ""
}

// ClaimName implements tui.Lobby: the store claims the name first, and only
// a name it accepted is listed.
func (l *sessionLobby) ClaimName(name string) error {
	if !tui.ValidName(name) {
		return errors.New("a name is 1 to 16 letters, digits, - or _")
	}
	err := l.srv.store.ClaimName(l.fp, name, time.Now())
	switch {
	case errors.Is(err, store.ErrNameTaken):
		return fmt.Errorf("%s is taken; choose another name", name)
	case err != nil:
		l.log.Error("claim name", "err", err)
		return errors.New("the name could not be saved; try again")
	}
	if s := l.held(); s != nil {
		s.Rename(name)
	}
	l.setShownName(name, false)
	return nil
}

// Cheat implements tui.Lobby: every cheat is logged with the fingerprint
// (the logger carries it) and the name the key is listed under.
func (l *sessionLobby) Cheat(what string) {
	l.log.Warn("cheat used", "cheat", what, "name", l.storedName())
}

// note shows the session's choice screen a line about its take-over.
func (l *sessionLobby) note(text string) {
	l.mu.Lock()
	p := l.prog
	l.mu.Unlock()
	if p != nil {
		go p.Send(tui.TakeOverNoteMsg{Note: text})
	}
}
