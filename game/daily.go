// The daily challenge (issue 15): one dungeon per UTC day, the same levels
// and items for everyone, made from a seed derived from the date alone.
// Cheats are never allowed in it.

package game

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"time"

	"github.com/grotto-game/grotto/game/content"
)

// DailyLayout is how a daily's date is written: the UTC day, "2006-01-02".
const DailyLayout = time.DateOnly

// ErrDailyCheat is the refusal (as an *Impossible's text) of a cheat in a
// daily game: cheats are never allowed in it.
var ErrDailyCheat = errors.New("Cheats are never allowed in the daily challenge.")

// DailySeed returns the seed of the daily of date ("2006-01-02"): the first
// 8 bytes, big-endian, of SHA-256("grotto-daily-" + date). Every server
// gives the same seed for the same date.
func DailySeed(date string) uint64 {
	sum := sha256.Sum256([]byte("grotto-daily-" + date))
	return binary.BigEndian.Uint64(sum[:8])
}

// NewDaily starts the daily of date ("2006-01-02", as DailyLayout writes
// the UTC day): New(DailySeed(date), data), marked as that day's daily
// (Daily), in which cheats are refused (ErrDailyCheat).
func NewDaily(date string, data *content.Tables) *Game {
	g := New(DailySeed(date), data)
	g.s.Daily = date
	return g
}

// Daily returns the date of the daily challenge this game is ("2006-01-02"),
// or "" for a game of its own.
func (g *Game) Daily() string { return g.s.Daily }
