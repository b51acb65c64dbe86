package faults

// A database aged by many finished games: a turn must cost the
// same bytes on it as on a fresh one, and `grotto compact` shrinks it
// offline, refusing while a server holds it.

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/store"
	"github.com/grotto-game/grotto/store/bolt"
)

// scratchDir is a temporary directory on tmpfs when there is one with room
// (the aged file and its compacted copy take about 300 MB; a container's
// /dev/shm is often 64 MB): building an aged database is 20,000 commits,
// each an fsync, free there.
func scratchDir(t *testing.T) string {
	t.Helper()
	var fs syscall.Statfs_t
	if err := syscall.Statfs("/dev/shm", &fs); err == nil && uint64(fs.Bavail)*uint64(fs.Bsize) >= 1<<30 {
		dir, err := os.MkdirTemp("/dev/shm", "grotto-faults-")
		if err == nil {
			t.Cleanup(func() { os.RemoveAll(dir) })
			return dir
		}
	}
	return t.TempDir()
}

// ageDB plays n games to their end in the database at path as n players at
// once would, through the store: every save is written (PutSave), then
// every game finishes (FinishGame deletes the save, records the score).
func ageDB(t *testing.T, path string, n int) {
	t.Helper()
	st, err := bolt.Open(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	blob, err := game.New(1, content.Default()).Encode()
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if err := st.PutSave(fmt.Sprintf("SHA256:aged%06d", i), blob); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now()
	for i := range n {
		s := store.Score{Name: "aged", Depth: 1, Turns: 10, Points: i % 500, Cause: "age", Date: now}
		if _, err := st.FinishGame(fmt.Sprintf("SHA256:aged%06d", i), s); err != nil {
			t.Fatal(err)
		}
	}
}

// wchar returns the bytes process pid has written so far (wchar in
// /proc/<pid>/io: every write to a file or socket, before any cache).
func wchar(t *testing.T, pid int) int64 {
	t.Helper()
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/io", pid))
	if err != nil {
		t.Skip("no /proc/<pid>/io:", err)
	}
	for _, l := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(l, "wchar: "); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Skip("no wchar in /proc/<pid>/io")
	return 0
}

// bytesPerTurn starts grotto on dir, plays turns waits as pl (each one
// journaled before it is drawn) and returns the bytes the server wrote per
// turn: the journal's commits, and the frames sent, the same on any file.
func bytesPerTurn(t *testing.T, dir string, pl *player, turns int) (int64, *proc) {
	t.Helper()
	p := start(t, anyPort, dir)
	pl.connect(t, p.addr)
	pl.step(t, ".") // the first turn may snapshot the new game
	first := pl.shown
	before := wchar(t, p.cmd.Process.Pid)
	for range turns {
		pl.step(t, ".")
	}
	written := wchar(t, p.cmd.Process.Pid) - before
	if pl.shown != first+turns {
		t.Fatalf("played to turn %d, want %d", pl.shown, first+turns)
	}
	return written / int64(turns), p
}

// grotto runs the binary with args and returns its exit status and output.
func grotto(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), stdout.String(), stderr.String()
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, stdout.String(), stderr.String()
}

// bbolt only: it measures the bytes the grotto process writes to its own
// file, and `grotto compact` is bbolt's (PostgreSQL reuses dead rows'
// space itself: autovacuum).
func TestATurnCostsTheSameAfterTenThousandFinishedGamesAndCompactShrinksTheFile(t *testing.T) {
	if testing.Short() {
		t.Skip("fault suite")
	}
	const games, turns = 10000, 20
	fresh, aged := scratchDir(t), scratchDir(t)
	path := filepath.Join(aged, "grotto.db")
	began := time.Now()
	ageDB(t, path, games)
	t.Logf("aged by %d games in %v", games, time.Since(began))

	players := newPlayers(t, 2)
	freshBytes, p := bytesPerTurn(t, fresh, players[0], turns)
	p.sigterm()
	p.exit(t, 10*time.Second)
	agedBytes, p := bytesPerTurn(t, aged, players[1], turns)
	t.Logf("bytes written per turn: fresh database %d, after %d finished games %d", freshBytes, games, agedBytes)
	if agedBytes > 3*freshBytes || agedBytes > 200<<10 {
		t.Errorf("a turn writes %d bytes after %d finished games, %d on a fresh database", agedBytes, games, freshBytes)
	}

	code, _, stderr := grotto(t, "compact", "--data", aged)
	if code != 1 || !strings.Contains(stderr, path) || !strings.Contains(stderr, "stop it first") {
		t.Errorf("compact while serving: exit %d, %s", code, stderr)
	}
	p.sigterm()
	if code := p.exit(t, 10*time.Second); code != 0 {
		t.Fatalf("exit %d:\n%s", code, p.stderr)
	}
	before, _ := os.Stat(path)
	code, stdout, stderr := grotto(t, "compact", "--data", aged)
	after, _ := os.Stat(path)
	t.Logf("compact: exit %d: %s%s", code, stdout, stderr)
	if code != 0 || !strings.Contains(stdout, "grotto.db.bak") || after.Size() > before.Size()/20 {
		t.Errorf("compact: exit %d, %d → %d bytes: %s%s", code, before.Size(), after.Size(), stdout, stderr)
	}
	p = start(t, anyPort, aged) // the game goes on in the compacted file
	players[1].c = nil
	shown := players[1].shown
	players[1].connect(t, p.addr)
	players[1].step(t, ".")
	if players[1].shown != shown+1 {
		t.Errorf("after compact the game is at turn %d, want %d", players[1].shown, shown+1)
	}
}
