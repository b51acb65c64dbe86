package server

// A measurement, not a test of timing (docs/performance.md, "Chat"): the
// player's key→frame latency over SSH while one of its watchers floods the
// chat, against the same watchers silent. It runs only with
// GROTTO_MEASURE_CHAT=1 and asserts nothing about time.

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/grotto-game/grotto/internal/sshtest"
)

// TestMeasurePlayerKeyToFrameDuringAChatFlood: a player opens and closes
// the message log (v, v: a new screen each and no turn, so the game never
// ends) keysPerPhase times per phase, while watchers SSH watchers look on.
// Phases alternate: the watchers silent, then one of them typing lines and
// ending each with Enter as fast as its connection takes them (a flood,
// nearly all refused by the chat's rates), rounds times; then a control
// where the flooder ends each line with Esc (the same keystrokes, no line
// said). It logs p50, p99 and max of each phase and of all silent and all
// flood phases together.
//
// Two things the first version of this measure got wrong, which hid the
// chat behind a constant: it closed the screen with Esc, whose frame waits
// out the terminal's 50 ms for an escape sequence, and it sent each key the
// moment the last frame showed, in step with the program's 30 fps frame
// clock, so every key waited one whole frame (34 ms). Each key now waits a
// random part of a frame first, as a person's keys fall anywhere in it.
func TestMeasurePlayerKeyToFrameDuringAChatFlood(t *testing.T) {
	if os.Getenv("GROTTO_MEASURE_CHAT") == "" {
		t.Skip("a measurement: set GROTTO_MEASURE_CHAT=1")
	}
	const keysPerPhase, watchers, rounds = 400, 3, 3
	const frame = time.Second / 30
	_, addr := serve(t, Config{})
	n := names.Add(1)
	player := dial(t, addr, newKey(t), 100, 30)
	namedGame(t, player, fmt.Sprintf("measurep%d", n))

	phase := func() []time.Duration {
		var d []time.Duration
		for i := range keysPerPhase {
			shows := func(s string) bool { return strings.Contains(s, "Message log (") }
			if i%2 == 1 {
				shows = func(s string) bool { return turn(s) != "" }
			}
			time.Sleep(rand.N(frame)) // off the frame clock's beat; not a wait for an event
			start := time.Now()
			player.Send("v")
			if _, err := player.WaitFor(timeout(t), shows); err != nil {
				t.Fatal(err)
			}
			d = append(d, time.Since(start))
		}
		return d
	}
	q := func(d []time.Duration, p float64) time.Duration {
		s := slices.Sorted(slices.Values(d))
		return s[min(len(s)-1, int(p*float64(len(s))))].Round(10 * time.Microsecond)
	}
	report := func(name string, d []time.Duration) {
		t.Logf("%s: %d keys, key→frame p50 %v, p99 %v, max %v", name, len(d), q(d, 0.50), q(d, 0.99), q(d, 1))
	}

	phase() // warm up
	report("no watchers", phase())

	ws := make([]*sshtest.Client, watchers)
	for i := range ws {
		ws[i] = watchNamed(t, addr, fmt.Sprintf("measurew%d_%d", n, i))
	}
	// flood runs a phase while ws[0] types lines as fast as its input
	// takes them, each ended by end (Enter says it; Esc drops it).
	flood := func(end string) ([]time.Duration, int) {
		stop, said := make(chan struct{}), make(chan int, 1)
		go func() {
			k := 0
			defer func() { said <- k }()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if ws[0].Send("c"+"flood line number "+strconv.Itoa(k)+end) != nil {
					return
				}
				k++
			}
		}()
		d := phase()
		close(stop)
		return d, <-said
	}
	var silent, flooded []time.Duration
	for r := range rounds {
		d := phase()
		report(fmt.Sprintf("round %d, %d watchers silent", r+1, watchers), d)
		silent = append(silent, d...)
		d, k := flood("\r")
		report(fmt.Sprintf("round %d, one of them flooding (%d lines sent)", r+1, k), d)
		flooded = append(flooded, d...)
	}
	d, k := flood("\x1b")
	report(fmt.Sprintf("control: one typing, no line said (%d lines typed and dropped)", k), d)
	report("all silent phases", silent)
	report("all flood phases", flooded)
	t.Logf("flood p99 / silent p99 = %.2f", float64(q(flooded, 0.99))/float64(q(silent, 0.99)))
}
