// Package frame holds what a live game shows its watchers: a Frame, one
// published state of the game, immutable once made and shared by every
// watcher of that game on a node. Its save blob (game.Encode) is what goes
// node to node; the game drawn from it is decoded once, by the first
// watcher that draws it, and every other watcher draws that same game
// (in a load test, 2,000 watchers each decoding the whole save every
// frame held the player's key for 68 s).
//
// It is pure, as the core is: no I/O, no clock, no goroutines; it only
// makes sure one decode serves every caller (sync.Once).
package frame

import (
	"sync"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
)

// Frame is one published state of a game. Its methods are safe for
// concurrent use; the zero value is not usable (call New).
type Frame struct {
	blob []byte
	data *content.Tables

	once sync.Once
	g    *game.Game
	err  error
}

// New returns the frame of blob, a game's save blob (game.Encode, or one
// read from another node), decoded with data (nil means content.Default())
// when first drawn. blob must not change once given: the frame and every
// reader of Blob share it.
func New(blob []byte, data *content.Tables) *Frame {
	if data == nil {
		data = content.Default()
	}
	return &Frame{blob: blob, data: data}
}

// Blob returns the frame's save blob (game.Encode's format, the one that
// goes node to node). Callers must not change it.
func (f *Frame) Blob() []byte { return f.blob }

// Game returns the frame's game, decoded from its blob on the first call
// and shared by every caller after it: callers only read it, through the
// accessors the UI draws from (game/tui's
// TestASharedGameDrawsFromManyGoroutines checks, under -race, that they
// change nothing). err is game.Decode's (wrapping ErrCorruptSave or
// ErrSaveVersion), the same for every caller.
func (f *Frame) Game() (*game.Game, error) {
	f.once.Do(func() {
		f.g, f.err = game.Decode(f.blob, f.data)
	})
	return f.g, f.err
}
