package server

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/grotto-game/grotto/internal/await"
	"github.com/grotto-game/grotto/internal/sshtest"
)

const (
	pasteOpen  = "\x1b[200~"
	pasteClose = "\x1b[201~"
)

// Through SSH, as the tester did: 5 players open a paste in the play screen
// and send 1 MB of '.' (the wait key) each, with no end. The server must not
// hold the megabytes, and none of the dots may be played as keys.
func TestPastesWithNoEndHoldNoMemoryAndPlayNoKeys(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	lim := DefaultLimits()
	lim.ConnPer10s, lim.InputBytesPerSec = 10000, 1<<20
	_, addr := serve(t, Config{Limits: lim})
	const players, size = 5, 1 << 20
	cs := make([]*sshtest.Client, players)
	turns := make([]int, players)
	for i := range cs {
		cs[i] = dial(t, addr, newKey(t), 100, 30)
		newGame(t, cs[i])
	}
	before := heapNow()
	dots := strings.Repeat(".", 64<<10)
	for i, c := range cs {
		turns[i] = atoi(turn(c.Screen()))
		c.Send(pasteOpen)
		for range size / len(dots) {
			c.Send(dots)
		}
	}
	// The heap must be measured once the server has taken in every pasted
	// byte, not while some are still in the kernel's buffers, where they
	// would pass for free. The paste draws nothing, and a marker key would
	// be pasted too; but a window change is no input: it comes on the same
	// connection after the paste, so once the game has redrawn for it (too
	// small: "enlarge"), every byte before it is in the server, in its SSH
	// buffers or past the sanitizer.
	for _, c := range cs {
		c.Resize(30, 10)
		waitText(t, c, "enlarge")
		c.Resize(100, 30)
		waitText(t, c, "Turn: ")
	}
	// 1 MB a second each, with a burst of 8: read within a second on an
	// idle machine. On a busy one the bytes still in the SSH buffers sit
	// there for a while: only a heap that stays above the bound (a paste
	// held whole, as before the fix) fails.
	var grown int64
	await.Within(10*time.Second, func() bool {
		grown = heapNow() - before
		return grown <= int64(players*size/2)
	})
	for i, c := range cs { // the paste ends, then one wait: one turn
		c.Send(pasteClose + ".")
		screen, err := c.WaitFor(timeout(t), func(s string) bool { return atoi(turn(s)) > turns[i] })
		if err != nil {
			t.Fatal(err)
		}
		// Z, unbound, comes after the paste: once its note shows, every
		// dot has been read, and any played as a key has passed a turn.
		screen = markKey(t, c, "Z", nil)
		if got := atoi(turn(screen)); got != turns[i]+1 {
			t.Errorf("player %d: turn %d after a pasted megabyte of dots and one wait, want %d", i, got, turns[i]+1)
		}
	}
	t.Logf("%d players pasting %d bytes each with no end: heap +%d bytes", players, size, grown)
	if grown > int64(players*size/2) { // before the fix: +6.4 MB; after: +0.8 MB, the sessions and their SSH buffers
		t.Errorf("the heap grew by %d bytes while %d players pasted %d bytes each with no end", grown, players, size)
	}
}

func heapNow() int64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}
