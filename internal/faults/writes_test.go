package faults

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// setFileSizeLimit lowers (or restores, with "unlimited") the running
// server's RLIMIT_FSIZE, so that its next database write fails with EFBIG
// as on a full disk. Go ignores SIGXFSZ, so the process lives on.
func setFileSizeLimit(t *testing.T, p *proc, limit string) {
	t.Helper()
	out, err := exec.Command("prlimit", "--pid", fmt.Sprint(p.cmd.Process.Pid), "--fsize="+limit+":").CombinedOutput()
	if err != nil {
		t.Fatalf("prlimit --fsize=%s: %v %s", limit, err, out)
	}
}

// stepUntil sends key and waits until the screen shows want.
func (p *player) stepUntil(t *testing.T, key, want string) string {
	t.Helper()
	p.c.Send(key)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	screen, err := p.c.WaitFor(ctx, func(s string) bool { return strings.Contains(s, want) })
	if err != nil {
		t.Fatalf("after %q no %q: %v", key, want, err)
	}
	screen = settle(p.c)
	if n := turnOf(screen); n >= 0 {
		p.shown, p.around = n, around(screen)
	}
	return screen
}

// TestAFailedWriteThenKill9ResumesTheTurnOnScreen is bbolt only: the file
// size limit fails the grotto process's own writes to its file; on
// PostgreSQL the writes are the database server's. It is a failed write on
// the real binary: some moves; the file-size limit makes the next write
// fail (the player is told the turn is not saved); the limit is restored;
// two more keys; kill -9. The game must resume at the turn last shown.
func TestAFailedWriteThenKill9ResumesTheTurnOnScreen(t *testing.T) {
	if testing.Short() {
		t.Skip("fault suite")
	}
	dir := t.TempDir()
	pl := newPlayers(t, 1)[0]
	p := start(t, anyPort, dir)
	pl.connect(t, p.addr)
	for _, k := range []string{"h", "h", "l", "j", "k", "."} {
		pl.step(t, k)
	}
	setFileSizeLimit(t, p, "1")
	pl.stepUntil(t, ".", "Not saved: the server's disk is full")
	pl.stepUntil(t, ".", "Not saved: the server's disk is full")
	setFileSizeLimit(t, p, "unlimited")
	// Two waits, each awaited until its turn shows (a step gives up after
	// 3 s, which a loaded machine can pass, and would record a stale turn).
	pl.stepUntil(t, ".", fmt.Sprintf("Turn: %d ", pl.shown+1))
	pl.stepUntil(t, ".", fmt.Sprintf("Turn: %d ", pl.shown+1))
	if strings.Contains(pl.c.Screen(), "Not saved") {
		t.Fatalf("still not saved once the disk has room:\n%s", pl.c.Screen())
	}
	p.kill9(t)
	pl.c.Close()

	p = start(t, anyPort, dir)
	screen := pl.connect(t, p.addr)
	if got := turnOf(screen); got != pl.shown || around(screen) != pl.around {
		t.Errorf("resumed at turn %d, the screen showed turn %d\nshown:\n%s\nresumed:\n%s", got, pl.shown, pl.around, around(screen))
	}
	if strings.Contains(screen, "damaged") || strings.Contains(screen, "set aside") {
		t.Errorf("the game was set aside as damaged:\n%s", screen)
	}
}

// TestADeletedDataDirIsNeverCalledSaved is bbolt only: on PostgreSQL the
// data dir holds no games (only the host key). Here the data
// directory is deleted while two players play, then SIGTERM. Nobody may be
// told their game is saved, the log must not say so, and the exit status
// must be non-zero.
func TestADeletedDataDirIsNeverCalledSaved(t *testing.T) {
	if testing.Short() {
		t.Skip("fault suite")
	}
	dir := t.TempDir()
	data := dir + "/data"
	players := newPlayers(t, 2)
	p := start(t, anyPort, data)
	for _, pl := range players {
		pl.connect(t, p.addr)
		pl.step(t, ".")
	}
	if err := os.RemoveAll(data); err != nil {
		t.Fatal(err)
	}
	players[0].stepUntil(t, ".", "Not saved") // told on the very next turn
	p.sigterm()
	code := p.exit(t, 10*time.Second)
	if code == 0 {
		t.Errorf("exit status 0 although no game could be saved:\n%s", p.stderr)
	}
	if strings.Contains(p.stderr.String(), "every game saved") {
		t.Errorf("the log claims every game was saved:\n%s", p.stderr)
	}
	for _, pl := range players {
		select {
		case <-pl.c.Done():
		case <-time.After(5 * time.Second):
		}
		out := string(pl.c.Output())
		if strings.Contains(out, "Your game is saved") || !strings.Contains(out, "could not be saved") {
			t.Errorf("%s was told: %q", pl.name, out[max(0, len(out)-300):])
		}
		pl.c.Close()
	}
	t.Logf("exit status %d", code)
}
