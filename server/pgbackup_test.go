package server

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	gossh "golang.org/x/crypto/ssh"

	"github.com/grotto-game/grotto/internal/pgtest"
)

// The PostgreSQL backup the hosting guide documents: pg_dump in its custom
// format while people play, pg_restore into a new database, a node started
// on it. Every game resumes at the turn it held when the dump began
// (pg_dump reads one snapshot), its journal included.
func TestAPgDumpUnderPlayRestoresEveryGameAtItsTurn(t *testing.T) {
	url := pgtest.NewDatabase(t)
	var logs lockedBuffer
	_, addr := serveNode(t, url, "node-a", MinLeaseTTL, &logs)
	idle := map[gossh.Signer]int{}
	for i := range 4 {
		key := newKey(t)
		c := dial(t, addr, key, 100, 30)
		newGame(t, c)
		idle[key] = 2 + i
		rest(t, c, 2+i)
		c.Close() // left: saved, its lease released
	}
	stopPlaying := playOn(t, addr, 4)
	dump := filepath.Join(t.TempDir(), "grotto.dump")
	out, err := exec.Command(filepath.Join(pgtest.BinDir, "pg_dump"), "--format=custom", "--file="+dump, "--dbname="+url).CombinedOutput()
	stopPlaying()
	if err != nil {
		t.Fatalf("pg_dump while four players played: %v\n%s", err, out)
	}
	restored := pgtest.NewDatabase(t)
	if out, err := exec.Command(filepath.Join(pgtest.BinDir, "pg_restore"), "--no-owner", "--exit-on-error", "--dbname="+restored, dump).CombinedOutput(); err != nil {
		t.Fatalf("pg_restore: %v\n%s", err, out)
	}
	var logsB lockedBuffer
	_, addrB := serveNode(t, restored, "node-b", MinLeaseTTL, &logsB)
	for key, want := range idle {
		c := dial(t, addrB, key, 100, 30)
		screen := waitText(t, c, "Continue")
		if !strings.Contains(screen, "turn "+strconv.Itoa(want)) {
			t.Errorf("the restored title offers another turn than %d:\n%s", want, screen)
		}
		c.Send("\r")
		waitText(t, c, "Turn: "+strconv.Itoa(want))
	}
}

// playOn starts n players on addr, each in a new game waiting one turn
// after another, each turn answered before the next, until the returned
// function is called, which returns once they have stopped.
func playOn(t *testing.T, addr string, n int) func() {
	t.Helper()
	stop := make(chan struct{})
	var busy sync.WaitGroup
	for range n {
		c := dial(t, addr, newKey(t), 100, 30)
		newGame(t, c)
		busy.Go(func() {
			for turn := 1; ; turn++ {
				select {
				case <-stop:
					return
				default:
				}
				c.Send(".")
				if _, err := c.WaitForText(waitLong, "Turn: "+strconv.Itoa(turn)); err != nil {
					return
				}
			}
		})
	}
	return func() { close(stop); busy.Wait() }
}
