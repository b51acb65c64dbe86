package server

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/grotto-game/grotto/internal/await"
)

// A terminal's reply to a colour query, cut in two by the network 60 ms
// apart, longer than Bubble Tea waits for the rest of a sequence: before
// the sanitizer held such a reply until whole, its second part was typed
// in as keys.
var splitReply = []string{"\x1b]11;rgb:1a1a/", "2b2b/3c3c\x1b\\"}

func sendSplitReply(c interface{ Send(string) error }) {
	c.Send(splitReply[0])
	// The pause is the subject: the network's gap inside the reply, longer
	// than Bubble Tea waits for the rest of a sequence. No event stands
	// for it.
	await.Gap(60 * time.Millisecond)
	c.Send(splitReply[1])
}

// timeout is a generous deadline for a screen to show something.
func timeout(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	t.Cleanup(cancel)
	return ctx
}

func TestASplitTerminalReplyIsNotTypedIntoTheName(t *testing.T) {
	_, addr := startServer(t)
	c := dial(t, addr, newKey(t), 100, 30)
	waitText(t, c, "Choose the name")
	c.Send("\x15ab") // Ctrl+U clears the suggestion
	waitText(t, c, "ab_")
	sendSplitReply(c)
	c.Send("c")
	screen, err := c.WaitFor(timeout(t), func(s string) bool { return strings.Contains(s, "c_") })
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(screen, " abc_") {
		t.Errorf("the name field took pieces of a terminal reply as keys:\n%s", screen)
	}
}

func TestASplitTerminalReplyIsNotPlayedAsKeys(t *testing.T) {
	_, addr := startServer(t)
	c := dial(t, addr, newKey(t), 100, 30)
	screen := newGame(t, c)
	before := atoi(turn(screen))
	sendSplitReply(c) // its ';' would open look mode, its b's walk
	c.Send(".")       // then one wait
	screen = waitText(t, c, "Turn: ")
	screen, err := c.WaitFor(timeout(t), func(s string) bool { return turn(s) != turn(screen) || atoi(turn(s)) > before })
	if err != nil {
		t.Fatal(err)
	}
	// Z, unbound, comes after the reply and the wait: once its note shows,
	// anything else the reply did shows too (look mode would hide the note).
	screen = markKey(t, c, "Z", func(s string) bool { return strings.Contains(s, "Esc leaves") })
	if got := atoi(turn(screen)); got != before+1 || strings.Contains(screen, "Esc leaves") {
		t.Errorf("after a split reply and one wait: turn %d (want %d), look mode open: %v\n%s",
			got, before+1, strings.Contains(screen, "Esc leaves"), screen)
	}
}

func TestALoneEscStillLeavesLookMode(t *testing.T) {
	_, addr := startServer(t)
	c := dial(t, addr, newKey(t), 100, 30)
	newGame(t, c)
	c.Send(";")
	waitText(t, c, "Esc leaves")
	c.Send("\x1b") // the Esc key, alone at the end of a write
	if _, err := c.WaitFor(timeout(t), func(s string) bool { return !strings.Contains(s, "Esc leaves") }); err != nil {
		t.Fatal(err)
	}
}

// A session asks the terminal for the keyboard enhancements Bubble Tea
// asked for when it read the input itself (server/input, terminal.go):
// once on the alternate screen, and undone before leaving it, so that the
// player's shell gets its keys back as before.
func TestASessionAsksForTheKeyboardModesAndUndoesThemOnTheWayOut(t *testing.T) {
	_, addr := startServer(t)
	c := dial(t, addr, newKey(t), 80, 24)
	newGame(t, c)
	c.Send("S")
	out := ended(t, c)
	on := strings.Index(out, "\x1b[?1049h\x1b[>4;2m\x1b[>1u")
	off := strings.LastIndex(out, "\x1b[>4m\x1b[<1u\x1b[?1049l")
	if on < 0 || off < on {
		t.Errorf("the keyboard modes were not asked on the alternate screen (at %d) and undone before leaving it (at %d): %q", on, off, out)
	}
}

// Look mode shows a block cursor (DECSCUSR); a session that ends in it
// gives the player's shell its own cursor back (the breaker's shell kept
// a blinking block).
func TestASessionEndedInLookModeGivesTheCursorShapeBack(t *testing.T) {
	_, addr := startServer(t)
	c := dial(t, addr, newKey(t), 80, 24)
	newGame(t, c)
	c.Send("/")
	waitText(t, c, "Esc leaves")
	c.Send("\x03") // Ctrl+C: save and leave, from any screen
	out := ended(t, c)
	shaped := strings.Index(out, "\x1b[1 q")
	reset := strings.LastIndex(out, "\x1b[0 q\x1b[?1049l")
	if shaped < 0 || reset < shaped {
		t.Errorf("a block cursor (at %d) is not given back before leaving the alternate screen (at %d)", shaped, reset)
	}
}
