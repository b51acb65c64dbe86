package web

import (
	"github.com/grotto-game/grotto/game/tui"
	"github.com/grotto-game/grotto/server/lobby"
)

type tuiLiveGame = tui.LiveGame

// toLive is how the server lists lobby games (server.liveGame), for tests
// of this package alone: the two Doing enumerations share their order.
func toLive(gs []lobby.Game) []tui.LiveGame {
	out := make([]tui.LiveGame, len(gs))
	for i, g := range gs {
		out[i] = tui.LiveGame{ID: g.ID, Name: g.Name, Activity: tui.Activity{Doing: tui.Doing(g.Activity.Doing), Watched: g.Activity.Watched}, Depth: g.Depth, Turn: g.Turn, LastInput: g.LastInput, Watchers: g.Watchers}
	}
	return out
}

// playing is the activity of a session with a game in play.
var playing = lobby.Activity{Doing: lobby.Playing}
