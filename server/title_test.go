package server

// This file: the title follows the server while a player rests on it:
// the scores of the games that end meanwhile.

import (
	"strings"
	"testing"
)

// TestTheTitleShowsTheGamesThatEndWhileAPlayerRestsOnIt: a player on the
// title, pressing nothing, sees the game another player ends (through the
// server's own session wiring) in Top scores at the next relist (a
// community tester's title showed one score after five games had ended).
func TestTheTitleShowsTheGamesThatEndWhileAPlayerRestsOnIt(t *testing.T) {
	srv, addr := startServer(t)
	if err := srv.Store().ClaimName("SHA256:bot-diver", "diver", srv.clock()); err != nil {
		t.Fatal(err)
	}
	c := dial(t, addr, newKey(t), 100, 40)
	if s := title(t, c); strings.Contains(s, "diver") {
		t.Fatalf("the title shows diver before the game ended:\n%s", s)
	}
	if g := playBot(t, srv, "diver", 20000); !g.Over() {
		t.Fatal("the bot's game did not end")
	}
	waitText(t, c, "1. diver")
}
