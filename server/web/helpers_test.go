package web

import (
	"github.com/grotto-game/grotto/game/tui"
	"github.com/grotto-game/grotto/server/lobby"
)

type tuiLiveGame = tui.LiveGame

func toLive(gs []lobby.Game) []tui.LiveGame {
	out := make([]tui.LiveGame, len(gs))
	for i, g := range gs {
		out[i] = tui.LiveGame{ID: g.ID, Name: g.Name, Depth: g.Depth, Turn: g.Turn, LastInput: g.LastInput, Watchers: g.Watchers}
	}
	return out
}
