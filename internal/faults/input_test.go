package faults

import (
	"strings"
	"testing"
	"time"

	"github.com/grotto-game/grotto/internal/sshtest"
)

// 35 bytes in one write once killed the server, every player with
// it: x/ansi's escape sequence decoder indexed its 32 parameters with the
// 33rd, in Bubble Tea's input goroutine, outside every recover.
func TestTheThirtyFiveBytesThatKilledTheServerHurtNoOne(t *testing.T) {
	if testing.Short() {
		t.Skip("fault suite")
	}
	onEachStore(t, thirtyFiveBytes)
}

// nameMarker is a name typed after an attack on the name screen: once it
// shows, the server has read everything before it.
const nameMarker = "zq9"

func thirtyFiveBytes(t *testing.T, b backend) {
	p := b.start(t, anyPort, t.TempDir())
	ps := newPlayers(t, 2)
	victim, attacker := ps[0], ps[1]
	victim.connect(t, p.addr)
	seps := strings.Repeat(";", 32)
	crashers := []struct{ name, bytes string }{
		{"CSI, 32 separators, a digit (the 35 bytes)", "\x1b[" + seps + "0"},
		{"CSI, 32 separators, a colon", "\x1b[" + seps + ":"},
		{"DCS, 32 separators, a digit", "\x1bP" + seps + "0q\x1b\\"},
		{"CSI, 200 colons and digits", "\x1b[" + strings.Repeat("1:", 200) + "m"},
	}
	alive := func(what string) {
		t.Helper()
		before := victim.shown
		victim.step(t, ".")
		if victim.shown != before+1 {
			t.Fatalf("after %s the other player's wait went from turn %d to %d", what, before, victim.shown)
		}
		select {
		case <-p.done:
			t.Fatalf("the server died after %s:\n%s", what, p.stderr)
		default:
		}
	}
	for _, c := range crashers {
		// On the name screen of a new key, once it is drawn: the program
		// reads its input.
		a := sshtest.New(t, p.addr, sshtest.Options{User: "mallory"})
		if _, err := a.WaitForText(30*time.Second, "Choose the name"); err != nil {
			t.Fatalf("before %s: %v", c.name, err)
		}
		a.Send(c.bytes)
		// Then keys whose answer is drawn only once the bytes before them
		// were read and decoded: "~" ends a sequence left open (the first
		// crasher has no final byte), Ctrl+U clears the name, and the new
		// name shows.
		a.Send("~\x15" + nameMarker)
		if _, err := a.WaitForText(30*time.Second, nameMarker+"_"); err != nil {
			t.Errorf("after %s the name screen did not draw the keys sent after it: %v", c.name, err)
		}
		a.Close()
		alive(c.name + " on the name screen")
	}
	attacker.connect(t, p.addr) // and from the play screen, in one write each
	for _, c := range crashers {
		attacker.c.Send(c.bytes)
		alive(c.name + " on the play screen")
	}
	attacker.step(t, ".") // the attacker's own game goes on too
	if attacker.shown < 1 {
		t.Errorf("the attacker's own game stopped at turn %d", attacker.shown)
	}
	if strings.Contains(strings.ToLower(p.stderr.String()), "panic") {
		t.Errorf("the server log has a panic:\n%s", p.stderr)
	}
	p.sigterm()
	if code := p.exit(t, 10*time.Second); code != 0 {
		t.Errorf("exit %d after the attacks", code)
	}
}
