// Finished games kept whole: the server's side of server/finished, which
// lists them (`ssh host replays [NAME]`), finds one (`ssh host dump ID`)
// and opens a replay for the replay player.

package server

import (
	"time"

	"github.com/grotto-game/grotto/game/replay"
	"github.com/grotto-game/grotto/store"
)

// clock returns the time now (Config.Clock, or time.Now).
func (s *Server) clock() time.Time {
	if s.cfg.Clock != nil {
		return s.cfg.Clock()
	}
	return time.Now()
}

// OpenReplay returns finished game id (digits, as typed) and its replay at
// turn 0, for the replay player (finished.Games.Open, whose errors it
// returns).
func (s *Server) OpenReplay(id string) (store.Finished, *replay.Replay, error) {
	return s.replays.games.Open(id)
}
