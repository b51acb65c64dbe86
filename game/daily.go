// The daily challenge: one dungeon per UTC day, the same levels
// and items for everyone on one host, made from a seed derived from the
// date and the host's secret (store.Dailies.DailySecret), so that nobody
// without the host's database can compute a day's dungeon ahead.
// Cheats are never allowed in it.

package game

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"errors"

	"github.com/grotto-game/grotto/game/content"
)

// ErrDailyCheat is the refusal (as an *Impossible's text) of a cheat in a
// daily game: cheats are never allowed in it.
var ErrDailyCheat = errors.New("Cheats are never allowed in the daily challenge.")

// DailySeed returns the seed of the daily of date ("2006-01-02") on the
// host whose secret (random bytes, store.Dailies.DailySecret) is secret:
// the first 8 bytes, big-endian, of HMAC-SHA256(secret, "grotto-daily-" +
// date) (RFC 2104). Everyone on one host gets the same seed; without the
// secret it cannot be computed.
func DailySeed(secret []byte, date string) uint64 {
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte("grotto-daily-" + date))
	return binary.BigEndian.Uint64(mac.Sum(nil)[:8])
}

// PublicDailySeed returns the seed dailies had before the host's secret
// was mixed in: the first 8 bytes, big-endian, of SHA-256("grotto-daily-" +
// date). Only for checking records of those days; anyone can compute it.
func PublicDailySeed(date string) uint64 {
	sum := sha256.Sum256([]byte("grotto-daily-" + date))
	return binary.BigEndian.Uint64(sum[:8])
}

// NewDaily starts the daily of date ("2006-01-02", as DailyLayout writes
// the UTC day) from seed (DailySeed of it, or a record's seed when a daily
// is replayed): New(seed, data), marked as that day's daily (Daily), in
// which cheats are refused (ErrDailyCheat).
func NewDaily(seed uint64, date string, data *content.Tables) *Game {
	g := New(seed, data)
	g.s.Daily = date
	return g
}

// Daily returns the date of the daily challenge this game is ("2006-01-02"),
// or "" for a game of its own.
func (g *Game) Daily() string { return g.s.Daily }
