package storetest

import (
	"errors"
	"sync/atomic"

	"github.com/grotto-game/grotto/store"
)

// ErrDiskFull is what a Flaky store's writes fail with while it is full.
var ErrDiskFull = errors.New("no space left on device")

// Flaky is a store whose writes of games (PutSave, AppendJournal,
// FinishGame) fail with ErrDiskFull while it is full, as on a full disk or
// past a file-size limit (prlimit --fsize); reads and everything else go
// to the Store under it. The one fault-injecting store of the session
// tests (tui's tests fake the whole Play instead); safe for concurrent use.
type Flaky struct {
	store.Store
	full atomic.Bool
}

// NewFlaky returns st as a Flaky store, not full.
func NewFlaky(st store.Store) *Flaky { return &Flaky{Store: st} }

// SetFull makes the game writes fail (full) or pass again.
func (f *Flaky) SetFull(full bool) { f.full.Store(full) }

// PutSave implements store.Saves, failing while full.
func (f *Flaky) PutSave(fp string, blob []byte) error {
	if f.full.Load() {
		return ErrDiskFull
	}
	return f.Store.PutSave(fp, blob)
}

// AppendJournal implements store.Saves, failing while full.
func (f *Flaky) AppendJournal(fp string, seq uint64, entry []byte) error {
	if f.full.Load() {
		return ErrDiskFull
	}
	return f.Store.AppendJournal(fp, seq, entry)
}

// FinishGame implements store.Scores, failing while full.
func (f *Flaky) FinishGame(fp string, s store.Score) (int, error) {
	if f.full.Load() {
		return 0, ErrDiskFull
	}
	return f.Store.FinishGame(fp, s)
}

// Full reports whether the game writes fail now.
func (f *Flaky) Full() bool { return f.full.Load() }
