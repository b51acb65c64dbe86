package server

// A measurement, not a test of timing (docs/performance.md, "Chat"): the
// player's key→frame latency over SSH with and without a chat flood from
// its watchers. It runs only with GROTTO_MEASURE_CHAT=1 and asserts
// nothing about time.

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/grotto-game/grotto/internal/sshtest"
)

// TestMeasurePlayerKeyToFrameDuringAChatFlood: a player opens and closes
// the inventory (i, Esc: a new screen each, and no turn, so the game never
// ends) keysPerPhase times, each key after the last one's frame showed, with
// no chat, then while floodWatchers SSH watchers each say lines as fast as
// their input takes them; it logs p50, p99 and max of each phase.
func TestMeasurePlayerKeyToFrameDuringAChatFlood(t *testing.T) {
	if os.Getenv("GROTTO_MEASURE_CHAT") == "" {
		t.Skip("a measurement: set GROTTO_MEASURE_CHAT=1")
	}
	const keysPerPhase, floodWatchers = 500, 4
	_, addr := serve(t, Config{})
	n := names.Add(1)
	player := dial(t, addr, newKey(t), 100, 30)
	namedGame(t, player, fmt.Sprintf("measurep%d", n))

	phase := func() []time.Duration {
		var d []time.Duration
		for i := range keysPerPhase {
			key, shows := "i", func(s string) bool { return strings.Contains(s, "Esc back") }
			if i%2 == 1 {
				key, shows = "\x1b", func(s string) bool { return turn(s) != "" }
			}
			start := time.Now()
			player.Send(key)
			if _, err := player.WaitFor(timeout(t), shows); err != nil {
				t.Fatal(err)
			}
			d = append(d, time.Since(start))
		}
		return d
	}
	report := func(name string, d []time.Duration) {
		slices.Sort(d)
		q := func(p float64) time.Duration { return d[min(len(d)-1, int(p*float64(len(d))))] }
		t.Logf("%s: %d keys, key→frame p50 %v, p99 %v, max %v", name, len(d), q(0.50).Round(10*time.Microsecond),
			q(0.99).Round(10*time.Microsecond), d[len(d)-1].Round(10*time.Microsecond))
	}

	phase() // warm up
	quiet := phase()

	watchers := make([]*sshtest.Client, floodWatchers)
	for i := range watchers {
		watchers[i] = watchNamed(t, addr, fmt.Sprintf("measurew%d_%d", n, i))
	}
	// flood runs a phase while every watcher types lines as fast as its
	// input takes them, each ended by end (Enter says it; Esc drops it:
	// the same keys, no chat line).
	flood := func(end string) ([]time.Duration, int, time.Duration) {
		stop := make(chan struct{})
		said := make(chan int, len(watchers))
		for _, w := range watchers {
			go func() {
				k := 0
				defer func() { said <- k }()
				for {
					select {
					case <-stop:
						return
					default:
					}
					if w.Send("c"+"flood line number "+strconv.Itoa(k)+end) != nil {
						return
					}
					k++
				}
			}()
		}
		start := time.Now()
		d := phase()
		took := time.Since(start)
		close(stop)
		total := 0
		for range watchers {
			total += <-said
		}
		return d, total, took
	}
	typed, typedN, typedTook := flood("\x1b")
	flooded, total, took := flood("\r")
	again := phase()
	report("no chat", quiet)
	report(fmt.Sprintf("typing, no line said (%d watchers, %d lines typed and dropped in %v)", floodWatchers, typedN, typedTook.Round(time.Millisecond)), typed)
	report(fmt.Sprintf("chat flood (%d watchers, %d lines sent in %v)", floodWatchers, total, took.Round(time.Millisecond)), flooded)
	report("no chat, again", again)
}
