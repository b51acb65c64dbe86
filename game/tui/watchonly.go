package tui

// This file: a model that only watches one live game, for a viewer with no
// game of their own (the web's watch page): no title, no keys that play,
// and nothing to save.

import (
	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
)

// NewWatcher returns a model that shows live game g, read-only, at the
// program's window size, drawing the frames that l.Watch(g.ID) hands it
// (each decoded once, with the data of whoever made it, for every
// watcher); only Watch of l is used. data is the game data of the model
// itself (nil means content.Default()). When the game ends
// the screen says so and stays. q or Esc quits the program. ok is false
// when g is no longer live (l.Watch said so). Call Close once the program
// has ended, to stop watching.
func NewWatcher(l Lobby, data *content.Tables, g LiveGame) (m *Model, ok bool) {
	m = New(Player{Lobby: l, Data: data, Play: noPlay{}})
	scr, cmd := startWatching(m, g, nil)
	if scr == nil {
		return nil, false
	}
	m.scr, m.start = scr, cmd
	return m, true
}

// noPlay is the Play of a model that has no game of its own.
type noPlay struct{}

func (noPlay) Open() (*game.Game, string, error) { return nil, "", nil }
func (noPlay) Continue() error                   { return nil }
func (noPlay) SavedDaily() *game.Game            { return nil }
func (noPlay) ContinueDaily() error              { return nil }
func (noPlay) Start() error                      { return nil }
func (noPlay) Do(game.Command) (game.Result, error) {
	return game.Result{}, &game.Impossible{Msg: "watching only"}
}
func (noPlay) Save() error      { return nil }
func (noPlay) Leave()           {}
func (noPlay) Game() *game.Game { return nil }
func (noPlay) InProgress() bool { return false }
func (noPlay) Behind() bool     { return false }
func (noPlay) Waiting() bool    { return false }
func (noPlay) Retry() error     { return nil }
func (noPlay) Rank() int        { return 0 }
