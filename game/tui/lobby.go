package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/grotto-game/grotto/game/frame"
)

// LiveGame is what everyone may know of a connected player: the title
// screen's list and `ssh host who`.
type LiveGame struct {
	ID   uint64 // the session, for Lobby.Watch
	Node string // the node it plays on, when the server is one of several ("" otherwise)
	Name string // already checked to be a valid name
	// Activity is what the session does now: a list shows its Depth and
	// Turn only while it plays (Doing is Playing).
	Activity  Activity
	Depth     int // 0 while not in a game
	Turn      int
	Daily     string // the daily challenge's date ("2006-01-02") when the game is one; "" otherwise
	LastInput time.Time
	Watchers  int
	// Hidden is true for a game of today's daily challenge (UTC), which
	// no one may watch until the day is over (the lobby's rule,
	// lobby.HiddenDaily): lists show it as HiddenNote, with no way to
	// watch it.
	Hidden bool
}

// Doing is what a connected player's session is doing, as the lists of
// live games show it (LiveGame.Activity).
type Doing uint8

// What a session may be doing; the zero value, OnTitle, is a session with
// no game open. The order is server/lobby's Doing.
const (
	// OnTitle: no game open (the title, name, settings or replay screens).
	OnTitle Doing = iota
	// Playing: a game in play, at LiveGame.Depth and LiveGame.Turn.
	Playing
	// GameOver: its game ended in death; the session shows how.
	GameOver
	// Won: its game ended in victory; the session shows how.
	Won
	// Watching: no game open; watching the game of Activity.Watched.
	Watching
)

// Activity is what a session does now: published through Lobby.Publish,
// listed in LiveGame.Activity.
type Activity struct {
	Doing Doing
	// Watched is the name the watched game is listed under while Doing is
	// Watching ("" for a player who has not chosen one, and otherwise).
	Watched string
}

// Text says what the session does, as the lists show it: "on the title",
// "playing", "game over", "won", "watching NAME" (the name made inert,
// "a new player" for none).
func (a Activity) Text() string {
	switch a.Doing {
	case Playing:
		return "playing"
	case GameOver:
		return "game over"
	case Won:
		return "won"
	case Watching:
		name := Inert(a.Watched)
		if name == "" {
			name = "a new player"
		}
		return "watching " + name
	}
	return "on the title"
}

// InPlay reports whether the session has a game in play: the only games a
// list offers as live to watch from the start of a turn, with a depth and
// a turn.
func (g LiveGame) InPlay() bool { return g.Activity.Doing == Playing }

// HiddenNote is how a list of live games marks a hidden game (LiveGame.Hidden).
const HiddenNote = "hidden until 00:00 UTC"

// HiddenWhy is the one sentence that says why a hidden game
// (LiveGame.Hidden) cannot be watched: the watch page's refusal and its
// WebSocket's close reason (at most 123 bytes, as a close reason must be).
const HiddenWhy = "This is today's daily challenge: it cannot be watched until 00:00 UTC, while anyone may still play it."

// HiddenList is the line under a list of live games that holds a hidden
// one (LiveGame.Hidden): `who`, the front page, the title's watch list.
const HiddenList = "Games of today's daily challenge are hidden until 00:00 UTC, while anyone may still play it."

// Lobby is what the server offers one session beyond its own game: the
// other live games, watching one, telling watchers about this game, taking
// over this key's other session, claiming a name and recording cheats. The
// server implements it; every method is safe to call from the session's
// program and returns quickly, except TakeOver, which the model runs as a
// command.
type Lobby interface {
	// Games lists the live sessions, this one excluded.
	Games() []LiveGame
	// Mine returns this key's other live session (the one a second session
	// of the key may watch or take over), found by key, never by name; ok
	// is false when it has ended.
	Mine() (g LiveGame, ok bool)
	// Watch subscribes to a live game's frames (newest only), each shared
	// by every watcher of the game on this server: draw it, never change
	// it. The channel closes when that game ends or becomes hidden
	// (LiveGame.Hidden). ok is false if it is gone or hidden (but for this
	// key's own game, from the choice to take over or watch).
	Watch(id uint64) (frames <-chan *frame.Frame, stop func(), ok bool)
	// Watchers returns how many watch this session now. A WatchersMsg
	// may stand for many changes: the next one comes once this was
	// called.
	Watchers() int
	// Publish tells the lobby what this session does (a: on the title,
	// playing, its game over, watching someone), its game's depth and turn
	// (0, 0 with no game), the daily's date when the game is the daily challenge ("" when
	// not) and, when someone watches, its newest frame (nil when none
	// does); f is never changed once published.
	Publish(a Activity, depth, turn int, daily string, f *frame.Frame)
	// TakeOver makes this key's other session save and leave, then makes
	// this session the key's live one. It blocks until then.
	TakeOver() error
	// ClaimName makes name this player's, unique on the server; it returns
	// an error to show the player when it cannot.
	ClaimName(name string) error
	// Cheat records that an admin used a cheat (the server logs it with
	// the key's fingerprint).
	Cheat(what string)
	// Chat opens the chat of live game id (a LiveGame.ID, as Watch takes
	// it), or with id 0 of this session's own game once it is its key's
	// player. ok is false when there is none: the game ended, or this
	// session may not watch it (a game it cannot watch has no chat for
	// it either). A session whose key has no name gets the room and may
	// read it; Say tells it why it cannot talk.
	Chat(id uint64) (room ChatRoom, ok bool)
}

// WatchersMsg tells a session that the number of people watching it
// changed; the model asks the lobby for the number.
type WatchersMsg struct{}

// TakenOverMsg tells a session that its key connected again and took the
// game over: the model saves and quits.
type TakenOverMsg struct{}

// TakeOverNoteMsg tells a session taking its key's game over how it goes
// while Lobby.TakeOver runs (e.g. the node holding the game does not
// answer, and the game resumes here when that node's claim lapses): the
// choice screen shows Note.
type TakeOverNoteMsg struct{ Note string }

// nopLobby is the lobby of a session alone on its server (tests).
type nopLobby struct{}

func (nopLobby) Games() []LiveGame                                { return nil }
func (nopLobby) Mine() (LiveGame, bool)                           { return LiveGame{}, false }
func (nopLobby) Watch(uint64) (<-chan *frame.Frame, func(), bool) { return nil, nil, false }
func (nopLobby) Publish(Activity, int, int, string, *frame.Frame) {}
func (nopLobby) Watchers() int                                    { return 0 }
func (nopLobby) TakeOver() error                                  { return nil }
func (nopLobby) ClaimName(string) error                           { return nil }
func (nopLobby) Cheat(string)                                     {}
func (nopLobby) Chat(uint64) (ChatRoom, bool)                     { return nil, false }

// publish tells the lobby where this game stands, with a frame only when
// someone watches (encoding costs a fraction of a millisecond a turn; the
// first watcher to draw the frame decodes it, for all of them).
// An ended game is published once more, so that watchers see how it ended.
func (m *Model) publish() {
	if _, ok := m.scr.(*waitScreen); ok {
		return // the turn waiting for storage is shown to no one
	}
	if m.game == nil {
		m.framed = false
		a := Activity{}
		if m.watching != nil {
			a = *m.watching
		}
		m.p.Lobby.Publish(a, 0, 0, "", nil)
		return
	}
	var f *frame.Frame
	if m.watchers > 0 {
		if blob, err := m.game.Encode(); err == nil {
			f = frame.New(blob, m.p.Data)
		}
	}
	m.framed = f != nil
	a := Activity{Doing: Playing}
	switch {
	case m.game.Over() && m.game.Won():
		a.Doing = Won
	case m.game.Over():
		a.Doing = GameOver
	}
	m.p.Lobby.Publish(a, m.game.Depth(), m.game.Turn(), m.game.Daily(), f)
}

// takeOver runs Lobby.TakeOver off the event loop.
func (m *Model) takeOver() tea.Cmd {
	lobby := m.p.Lobby
	return func() tea.Msg { return takeOverDone{lobby.TakeOver()} }
}

type takeOverDone struct{ err error }
