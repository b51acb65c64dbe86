// The daily challenge: one dungeon per UTC day for everyone
// (game.NewDaily), one attempt per key per day (store.Dailies.StartDaily,
// taken when the daily starts), and its own board, `ssh host scores daily
// [DATE]`.

package server

import (
	"errors"
	"fmt"
	"time"

	"charm.land/log/v2"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/server/session"
	"github.com/grotto-game/grotto/store"
)

// dailyStarter is one session's Daily challenge item (tui.Daily).
type dailyStarter struct {
	s    *Server
	fp   string
	play *session.Session
	log  *log.Logger
	now  func() time.Time // nil means the server's clock (Server.clock)
}

// StartDaily implements tui.Daily: it takes the key's attempt at today's
// daily (the UTC day) and starts it in the session, saved.
func (d *dailyStarter) StartDaily() error {
	now := d.s.clock
	if d.now != nil {
		now = d.now
	}
	t := now().UTC()
	date := t.Format(store.DailyLayout)
	secret, err := d.s.store.DailySecret()
	if err != nil {
		d.log.Error("could not read the daily secret", "err", err)
		return errors.New("The daily challenge cannot be started right now; please try again later.")
	}
	err = d.s.store.StartDaily(d.fp, date, t)
	if errors.Is(err, store.ErrDailyTaken) {
		return errors.New(dailyDone(t))
	}
	if err != nil {
		d.log.Error("could not record the attempt at the daily", "date", date, "err", err)
		return errors.New("The daily challenge cannot be started right now; please try again later.")
	}
	d.log.Info("daily challenge started", "date", date)
	return d.play.StartDaily(game.DailySeed(secret, date), date) // the game starts even when its first save fails (err says so)
}

// dailyBoardCap is the most scores DailyEntries counts on a day's board;
// a larger board is said to hold this many.
const dailyBoardCap = 10000

// DailyEntries implements tui.DailyBoard: how many scores the board of the
// daily of date holds (at most dailyBoardCap), for the daily's game over.
func (d *dailyStarter) DailyEntries(date string) (int, error) {
	scores, err := d.s.store.DailyScores(date, dailyBoardCap)
	return len(scores), err
}

// dailyDone is what a key that has played today's daily reads: "Today's
// daily is done; the next one starts in 6h 12m (00:00 UTC)."
func dailyDone(now time.Time) string {
	next := now.UTC().Truncate(24 * time.Hour).Add(24 * time.Hour)
	return "Today's daily is done; the next one starts in " + untilText(next.Sub(now)) + " (00:00 UTC)."
}

// untilText writes d, at most a day, as "6h 12m", rounding up to the
// minute.
func untilText(d time.Duration) string {
	mins := int((d + time.Minute - 1) / time.Minute)
	if mins >= 60 {
		return fmt.Sprintf("%dh %dm", mins/60, mins%60)
	}
	return fmt.Sprintf("%dm", max(1, mins))
}
