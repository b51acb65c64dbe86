package server

import (
	"runtime"
	"testing"
	"time"

	"github.com/grotto-game/grotto/internal/await"
	"github.com/grotto-game/grotto/internal/sshtest"
)

// settleGoroutines returns the goroutine count once it stops falling (for
// a second at most): the count to compare with after. No event says the
// count is final: it has stopped falling when it is no lower than it was
// settleLooks looks (settleLooks×await.Poll) before.
func settleGoroutines() int {
	const settleLooks = 4
	counts := []int{runtime.NumGoroutine()}
	await.Within(time.Second, func() bool {
		counts = append(counts, runtime.NumGoroutine())
		k := len(counts) - 1
		return k >= settleLooks && counts[k] >= counts[k-settleLooks]
	})
	return counts[len(counts)-1]
}

// goroutinesDownTo waits until the goroutine count is at most limit, or
// waitLong has passed, and returns the count: more than limit is a leak.
func goroutinesDownTo(limit int) int {
	n := runtime.NumGoroutine()
	await.Within(waitLong, func() bool {
		n = runtime.NumGoroutine()
		return n <= limit
	})
	return n
}

func TestManyConnectionsLeaveNoGoroutinesOrMemoryBehind(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	_, addr := startServer(t)
	cycle := func(abrupt bool) {
		key := newKey(t)
		c, err := sshtest.Dial(addr, key, sshtest.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.WaitForText(waitLong, "Choose the name"); err != nil {
			t.Fatal(err)
		}
		if abrupt {
			c.Close() // the client vanishes
			return
		}
		c.Send("\x03") // Ctrl+C: quit cleanly
		ended(t, c)
		c.Close()
	}
	for range 10 { // warm up pools and caches
		cycle(false)
	}
	base := settleGoroutines()
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range 200 {
		cycle(i%2 == 0)
	}
	after := goroutinesDownTo(base + 5)
	if after > base+5 {
		buf := make([]byte, 1<<20)
		n := runtime.Stack(buf, true)
		t.Errorf("goroutines: %d before, %d after 200 sessions\n%s", base, after, buf[:n])
	}
	var mem runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&mem)
	if grown := int64(mem.HeapAlloc) - int64(before.HeapAlloc); grown > 8<<20 {
		t.Errorf("heap grew by %d bytes over 200 sessions", grown)
	}
}
