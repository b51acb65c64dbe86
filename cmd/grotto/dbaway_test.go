package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/grotto-game/grotto/internal/pgtest"
	"github.com/grotto-game/grotto/internal/sshtest"
)

// TestPlayWaitsForARestartedDatabaseAndResumesByItself: a server on
// PostgreSQL, a player in a game, and the database dies (as a crash would).
// The key pressed then shows "Waiting for storage", the turn counter does
// not move, and keys meanwhile do nothing; once PostgreSQL is back the
// screen shows the new turn by itself, and a later login resumes at it. A
// player who leaves while it waits is told that only the move never shown
// may be lost, and the next login finds the turn the screen last showed.
func TestPlayWaitsForARestartedDatabaseAndResumesByItself(t *testing.T) {
	srv := pgtest.Own(t) // this test's own: it kills it
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	url, err := srv.CreateDatabase(ctx)
	if err != nil {
		t.Fatal(err)
	}
	addr, socks := keptSSH(t)
	key, _ := sshtest.NewKey()
	code := make(chan int, 1)
	go func() { code <- runOn([]string{"--listen", addr, "--data", t.TempDir(), "--store", url}, socks) }()
	defer func() {
		syscall.Kill(os.Getpid(), syscall.SIGTERM)
		select {
		case <-code:
		case <-time.After(30 * time.Second):
			t.Error("still running 30 s after SIGTERM")
		}
	}()
	dial := func() *sshtest.Client { return dialSSH(t, addr, key) }
	waitFor := func(c *sshtest.Client, timeout time.Duration, text string) string {
		t.Helper()
		screen, err := c.WaitForText(timeout, text)
		if err != nil {
			t.Fatalf("waiting for %q: %v\n%s", text, err, c.Screen())
		}
		return screen
	}

	c := dial()
	waitFor(c, 10*time.Second, "Choose the name")
	c.Send("\r")
	waitFor(c, 10*time.Second, "New game")
	c.Send("n")
	waitFor(c, 10*time.Second, "Turn: 0")
	c.Send("...")
	waitFor(c, 10*time.Second, "Turn: 3")

	if err := srv.Kill(); err != nil {
		t.Fatal(err)
	}
	c.Send(".")
	screen := waitFor(c, time.Minute, "Waiting for storage")
	t.Logf("the screen while the database is down:\n%s", screen)
	c.Send(".")
	screen = waitFor(c, 10*time.Second, "Keys pressed now are not played")
	if strings.Contains(screen, "Turn: 4") || strings.Contains(screen, "Turn: 5") || !strings.Contains(screen, "last showed turn 3") {
		t.Fatalf("while the database is down the screen shows a turn not saved:\n%s", screen)
	}

	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	screen = waitFor(c, time.Minute, "Turn: 4") // no key pressed
	if strings.Contains(screen, "Waiting for storage") || strings.Contains(screen, "Turn: 5") {
		t.Fatalf("once the database is back:\n%s", screen)
	}
	c.Send("\x03") // Ctrl+C: save and leave
	waitEnded(t, c, 10*time.Second, "Ctrl+C (save and leave)")
	c.Close()

	c = dial()
	waitFor(c, 10*time.Second, "Continue")
	c.Send("c")
	waitFor(c, 10*time.Second, "Turn: 4")

	// Down again, and the player leaves while the move waits.
	if err := srv.Kill(); err != nil {
		t.Fatal(err)
	}
	c.Send(".")
	waitFor(c, time.Minute, "Waiting for storage")
	c.Send("\x03")
	select {
	case <-c.Done():
	case <-time.After(time.Minute):
		t.Fatalf("Ctrl+C while waiting for storage did not end the session:\n%s", c.Screen())
	}
	if out := c.Output(); !bytes.Contains(out, []byte("Every move your screen showed is saved")) {
		t.Errorf("leaving while the database is down, the player read:\n%q", out[max(0, len(out)-400):])
	}
	c.Close()
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	c = dial()
	defer c.Close()
	waitFor(c, time.Minute, "Continue")
	c.Send("c")
	screen = waitFor(c, 10*time.Second, "Turn: 4")
	if strings.Contains(screen, "Turn: 5") {
		t.Fatalf("the move never shown came back:\n%s", screen)
	}
}
