package input

import (
	"context"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	uv "github.com/charmbracelet/ultraviolet"

	"github.com/grotto-game/grotto/internal/await"
)

const (
	pasteOpen  = "\x1b[200~"
	pasteClose = "\x1b[201~"
)

// A paste is bounded: a client that opens one (CSI 200~) and never closes
// it made every later byte pile up in ultraviolet's paste buffer, for as
// long as the session lasted.
func TestThePasteSanitizerPassesABoundedPasteAndEndsIt(t *testing.T) {
	mb := strings.Repeat("a", 1<<20)
	bounded := pasteOpen + strings.Repeat("a", maxPasteBytes) + pasteClose
	for _, c := range []struct {
		name   string
		gap    time.Duration
		chunks []string
		want   string
	}{
		{"a short paste passes whole", 10 * time.Millisecond,
			[]string{pasteOpen + "hello\r\x1b[A" + pasteClose + "j"}, pasteOpen + "hello\r\x1b[A" + pasteClose + "j"},
		{"1 MB pasted passes its first bytes, then ends; keys after the end pass", 10 * time.Millisecond,
			[]string{pasteOpen + mb + pasteClose + "j"}, bounded + "j"},
		{"the rest of a long paste is dropped until its end, even in many writes", 10 * time.Millisecond,
			[]string{pasteOpen + mb, mb, "jjj" + pasteClose, "k"}, bounded + "k"},
		{"a paste left open ends when the client is quiet", seqWait,
			[]string{pasteOpen + "abc", "j"}, pasteOpen + "abc" + pasteClose + "j"},
		{"1 MB pasted with no end is ended once, then quiet ends the dropping", seqWait,
			[]string{pasteOpen + mb, "j"}, bounded + "j"},
		{"a paste left open at the end of the input is ended", 10 * time.Millisecond,
			[]string{pasteOpen + "abc"}, pasteOpen + "abc" + pasteClose},
		{"a paste start with more parameters is a paste start (ultraviolet reads only the first)", 10 * time.Millisecond,
			[]string{"\x1b[200;1~" + mb + "jjj" + "\x1b[201;5~", "k"}, bounded + "k"},
		{"a paste start with a sub-parameter or leading zeros is one too", 10 * time.Millisecond,
			[]string{"\x1b[0200:3~" + mb, "\x1b[00201~k"}, bounded + "k"},
		{"a paste start in a paste is nothing", 10 * time.Millisecond,
			[]string{pasteOpen + "a" + pasteOpen + "b" + pasteClose}, pasteOpen + "ab" + pasteClose},
	} {
		got := sanitize(c.gap, c.chunks...)
		if got != c.want {
			show := func(s string) string {
				if len(s) > 300 {
					return strings.ReplaceAll(s[:150], strings.Repeat("a", 100), "a×100") + " … " + s[len(s)-150:]
				}
				return s
			}
			t.Errorf("%s: got %d bytes %q, want %d bytes %q", c.name, len(got), show(got), len(c.want), show(c.want))
		}
	}
}

// Through the decoder Bubble Tea uses: ESC [ 200 ~ and 1 MB, the pipe kept
// open as an attacker would. The program must get a bounded paste at once
// and no keys, and the heap must not hold the megabyte.
func TestAPasteWithNoEndHoldsNoMoreThanItsBoundInTheDecoder(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	in := New(context.Background(), r, 0, nil, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events, finished := decodeEvents(ctx, in)
	type seen struct {
		keys, pastes, pasted, ends int
		typed                      string // the keys, one after the other
	}
	got := make(chan seen)
	var tally seen
	go func() {
		for {
			select {
			case ev := <-events:
				switch ev := ev.(type) {
				case uv.KeyPressEvent:
					tally.keys++
					tally.typed += ev.String()
				case uv.PasteEvent:
					tally.pastes++
					tally.pasted += len(ev.Content)
				case uv.PasteEndEvent:
					tally.ends++
				}
			case got <- tally:
			case <-finished:
				close(got)
				return
			}
		}
	}()
	heap := func() int64 {
		var m runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m)
		return int64(m.HeapAlloc)
	}
	// until waits for the tally to satisfy ok, and returns it; past
	// waitLong it returns the last tally, for the checks to report.
	until := func(ok func(seen) bool) seen {
		var s seen
		await.Within(waitLong, func() bool { s = <-got; return ok(s) })
		return s
	}
	w.Write([]byte(pasteOpen + "warm" + pasteClose))
	until(func(s seen) bool { return s.ends == 1 }) // the warm-up paste is decoded
	before := heap()
	const size = 1 << 20
	w.Write([]byte(pasteOpen))
	chunk := []byte(strings.Repeat("a", 4096))
	for range size / len(chunk) {
		w.Write(chunk) // returns once the pump has read it
	}
	w.Write([]byte("x")) // the pump has handed the megabyte on
	// The decoder has eaten it once the paste, ended at its bound, comes
	// out (without the bound it never would: the checks below say so).
	until(func(s seen) bool { return s.pastes == 2 })
	grown := heap() - before
	s := <-got
	t.Logf("after ESC[200~ and %d bytes with no end: heap +%d bytes; %d pastes of %d bytes, %d keys", size, grown, s.pastes, s.pasted, s.keys)
	if grown > size/4 {
		t.Errorf("the heap grew by %d bytes after %d bytes pasted with no end", grown, size)
	}
	if s.pastes != 2 || s.pasted != len("warm")+maxPasteBytes || s.keys != 0 {
		t.Errorf("%d pastes of %d bytes in all and %d keys, want 2 pastes of %d bytes and no keys",
			s.pastes, s.pasted, s.keys, len("warm")+maxPasteBytes)
	}
	// Keys after the end of the paste (or a quiet spell) are keys again.
	// The k is the last byte written: once it is a key, every byte before
	// it has been decoded, and any of the paste that became a key shows.
	w.Write([]byte(pasteClose + "jk"))
	s = until(func(s seen) bool { return strings.HasSuffix(s.typed, "k") })
	if s.keys != 2 {
		t.Errorf("%d keys after the paste ended (%q), want 2", s.keys, s.typed)
	}
}

func heapNow() int64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}
