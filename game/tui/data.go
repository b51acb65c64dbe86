package tui

import "github.com/grotto-game/grotto/game/content"

// gameData is the data every game of this UI is made and decoded with: the
// embedded tables, which the server checked with game.LoadData at start. A
// stopgap until the session hands the UI its games (issue 11), when the
// server's own tables are passed on instead.
func gameData() *content.Tables { return content.Default() }
