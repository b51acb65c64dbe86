package server

import (
	"runtime"
	"testing"
	"time"

	"github.com/grotto-game/grotto/internal/sshtest"
)

// A session whose program quits while keys are still arriving (taken over
// while typing, or S with more keys in the same write) left Bubble Tea's
// input goroutine blocked and the whole program on the heap, a program
// leaked per take-over, until grotto decoded a session's keys itself and
// sent them to the program.
func TestSessionsThatEndWhileKeysArriveLeaveNothingBehind(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	_, addr := startServer(t)
	takeOver := func() {
		key := newKey(t)
		old, err := sshtest.Dial(addr, key, sshtest.Options{Width: 100, Height: 30})
		if err != nil {
			t.Fatal(err)
		}
		defer old.Close()
		newGame(t, old)
		stop := make(chan struct{})
		typing := make(chan struct{})
		go func() { // the old session keeps typing through the take-over
			defer close(typing)
			for {
				select {
				case <-stop:
					return
				case <-old.Done():
					return
				case <-time.After(2 * time.Millisecond):
					// An unbound key: decoded and sent to the program like
					// any other, but it plays no turn. With "." (wait) a
					// fast server played enough turns for a jackal to end
					// the game before the take-over, which then found the
					// title instead of the game.
					old.Send("Z")
				}
			}
		}()
		c, err := sshtest.Dial(addr, key, sshtest.Options{Width: 100, Height: 30})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		waitText(t, c, "already playing")
		c.Send("t")
		select {
		case <-old.Done():
		case <-time.After(waitLong):
			t.Fatal("the old session is still open")
		}
		close(stop)
		recv(t, "the old session's typing to stop", typing)
		waitText(t, c, "Turn:")
		c.Send("S")
		ended(t, c)
	}
	saveWithMoreKeys := func() {
		c, err := sshtest.Dial(addr, newKey(t), sshtest.Options{Width: 100, Height: 30})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		newGame(t, c)
		c.Send("S....jjjj") // save and leave, and keys after it in the same write
		ended(t, c)
	}
	for range 3 { // warm up pools and caches
		takeOver()
		saveWithMoreKeys()
	}
	base := settleGoroutines()
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	const n = 30
	for range n {
		takeOver()
		saveWithMoreKeys()
	}
	after := goroutinesDownTo(base + 5)
	var mem runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&mem)
	grown := int64(mem.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("goroutines %d before, %d after %d take-overs and %d saves with keys after; heap grew %d bytes", base, after, n, n, grown)
	if after > base+5 {
		buf := make([]byte, 1<<20)
		k := runtime.Stack(buf, true)
		t.Errorf("goroutines: %d before, %d after\n%s", base, after, buf[:k])
	}
	if grown > 8<<20 {
		t.Errorf("heap grew by %d bytes over %d sessions", grown, 2*n)
	}
}
