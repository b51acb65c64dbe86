package server

import (
	"strconv"
	"strings"
	"testing"
)

// A client whose input runs out (ssh -tt host < keys, at the end of the
// file) has every key it sent played, then its game saved and its session
// ended with a line that says so, instead of holding its seat and its
// lease until the idle timeout (30 minutes by default) for a key that
// cannot come. A breaker found the old behaviour (issue 23).
func TestAClientWhoseInputEndsHasItsKeysPlayedAndItsGameSaved(t *testing.T) {
	srv, addr := serve(t, Config{})
	key := newKey(t)
	c := dial(t, addr, key, 100, 30)
	newGame(t, c)
	walked := atoi(turn(walk(t, c, 3)))
	// Three waits sent just before the end of the input: they are played
	// before the end is heard.
	c.Send("...")
	if err := c.CloseInput(); err != nil {
		t.Fatal(err)
	}
	bye := ended(t, c)
	if !strings.Contains(bye, "Your terminal stopped sending keys; your game is saved.") {
		t.Errorf("the player read:\n%s", bye)
	}
	if got := savedTurn(srv, key); got != walked+3 {
		t.Errorf("saved at turn %d, want %d (the walk's %d and the three waits sent before the end)", got, walked+3, walked)
	}
	again := dial(t, addr, key, 100, 30)
	waitText(t, again, "Continue")
	again.Send("\r")
	waitText(t, again, "Turn: "+strconv.Itoa(walked+3))
}
