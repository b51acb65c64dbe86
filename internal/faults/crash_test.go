package faults

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/internal/await"
	"github.com/grotto-game/grotto/internal/sshtest"
)

// The fault counts the README's table reports; each test adds its own.
func newPlayers(t *testing.T, n int) []*player {
	t.Helper()
	ps := make([]*player, n)
	for i := range ps {
		k, err := sshtest.NewKey()
		if err != nil {
			t.Fatal(err)
		}
		ps[i] = &player{key: k, name: fmt.Sprintf("p%d", i)}
	}
	return ps
}

func TestKill9MidPlayNeverLosesATurnAPlayerSaw(t *testing.T) {
	if testing.Short() {
		t.Skip("fault suite")
	}
	onEachStore(t, kill9MidPlay)
}

func kill9MidPlay(t *testing.T, b backend) {
	rng := rand.New(rand.NewPCG(2026, 11))
	dir := t.TempDir()
	players := newPlayers(t, 3)
	keys := []string{"h", "j", "k", "l", "y", "u", "b", "n", ".", "."}
	const rounds = 6
	// One address for every round, as a host's systemd socket keeps it:
	// each grotto after a kill -9 serves the same socket.
	addr := heldAddr(t)
	for round := range rounds {
		p := b.start(t, addr, dir)
		for _, pl := range players {
			screen := pl.connect(t, p.addr)
			got := turnOf(screen)
			if pl.died { // a monster ended the game on screen: a new one began
				pl.died = false
			} else if round > 0 {
				switch {
				case got == pl.shown:
					if a := around(screen); a != pl.around {
						t.Errorf("round %d %s: resumed at turn %d but elsewhere:\nshown:\n%s\nresumed:\n%s", round, pl.name, got, pl.around, a)
					}
				case pl.flight && got == pl.shown+1:
					// The key in flight was made durable before the kill; its
					// answer was never drawn. Nothing the player saw is lost.
				default:
					t.Errorf("round %d %s: showed turn %d (key in flight: %v), resumed at %d", round, pl.name, pl.shown, pl.flight, got)
				}
			}
			pl.shown, pl.around, pl.flight = got, around(screen), false
		}
		// Play a random number of turns, then kill at a random moment: for
		// some players right after a key whose answer was not awaited.
		for _, pl := range players {
			for range 1 + rng.IntN(12) {
				pl.step(t, keys[rng.IntN(len(keys))])
			}
		}
		for _, pl := range players {
			if rng.IntN(2) == 0 {
				pl.c.Send(".")
				pl.flight = true
			}
		}
		// The fault's own timing, not a wait for anything: the kill lands 0
		// to 2 ms after the keys in flight, a random moment in their way
		// through the server (read, played, written, drawn), and the checks
		// above hold whichever it is.
		await.Gap(time.Duration(rng.IntN(3)) * time.Millisecond)
		p.kill9(t)
		for _, pl := range players {
			pl.c.Close()
			pl.died = strings.Contains(pl.c.Screen(), "You died")
		}
	}
	// The last state must also be in the store as a save + journal.
	st := b.open(t, dir)
	for _, pl := range players {
		blob, err := st.Save(keyFP(pl))
		if err != nil && pl.died {
			t.Logf("%s died in the last round: no save to check", pl.name)
			continue
		} else if err != nil {
			t.Fatalf("%s: no save after the last kill: %v; the screen showed:\n%s", pl.name, err, pl.c.Screen())
		}
		if _, err := game.Decode(blob, content.Default()); err != nil {
			t.Errorf("%s: save after kill -9: %v", pl.name, err)
		}
	}
}

func TestSIGTERMWith50SessionsSavesAllAndExitsZero(t *testing.T) {
	if testing.Short() {
		t.Skip("fault suite")
	}
	onEachStore(t, sigtermWith50Sessions)
}

func sigtermWith50Sessions(t *testing.T, b backend) {
	dir := t.TempDir()
	p := b.start(t, anyPort, dir)
	players := newPlayers(t, 50)
	// The players connect at once, each from its own goroutine, where a
	// t.Fatal would end only that goroutine and leave the test to go on
	// with a player who has no client: each reports to the test's own
	// goroutine, which fails the test at the first error.
	errs := make(chan error, len(players))
	for _, pl := range players {
		go func() {
			_, err := pl.tryConnect(p.addr)
			if err == nil {
				err = pl.tryWait()
			}
			errs <- err
		}()
	}
	connected := time.After(5 * time.Minute) // each one's own waits are bounded (tryConnect, tryStep): this is the backstop
	for range players {
		select {
		case err := <-errs:
			if err != nil {
				t.Fatal(err)
			}
		case <-connected:
			t.Fatal("50 players still connecting after 5 minutes")
		}
	}
	began := time.Now()
	p.sigterm()
	if code := p.exit(t, 10*time.Second); code != 0 {
		t.Errorf("exit code %d after SIGTERM:\n%s", code, p.stderr)
	}
	t.Logf("SIGTERM to exit with 50 sessions: %v", time.Since(began))
	told := 0
	for _, pl := range players {
		select {
		case <-pl.c.Done():
		case <-time.After(5 * time.Second):
		}
		if strings.Contains(string(pl.c.Output()), "Your game is saved") {
			told++
		}
		pl.c.Close()
	}
	if told != len(players) {
		t.Errorf("%d of %d players were told their game is saved", told, len(players))
	}
	st := b.open(t, dir) // for bbolt: fails unless the file was closed cleanly
	for _, pl := range players {
		blob, err := st.Save(keyFP(pl))
		if err != nil {
			t.Fatalf("%s: %v", pl.name, err)
		}
		g, err := game.Decode(blob, content.Default())
		if err != nil || g.Turn() != pl.shown {
			t.Errorf("%s: saved at turn %v (%v), screen showed %d", pl.name, g.Turn(), err, pl.shown)
		}
	}
}
