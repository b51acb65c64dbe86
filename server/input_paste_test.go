package server

import (
	"context"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	uv "github.com/charmbracelet/ultraviolet"

	"github.com/grotto-game/grotto/internal/sshtest"
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
	in := newInput(context.Background(), r, "xterm-256color", 0, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events, finished := decodeEvents(ctx, in)
	type seen struct {
		keys, pastes, pasted, ends int
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
	w.Write([]byte(pasteOpen + "warm" + pasteClose))
	time.Sleep(50 * time.Millisecond)
	before := heap()
	const size = 1 << 20
	w.Write([]byte(pasteOpen))
	chunk := []byte(strings.Repeat("a", 4096))
	for range size / len(chunk) {
		w.Write(chunk) // returns once the pump has read it
	}
	w.Write([]byte("x")) // the pump has handed the megabyte on; give the decoder time to eat it
	time.Sleep(200 * time.Millisecond)
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
	w.Write([]byte(pasteClose + "jk"))
	deadline := time.Now().Add(waitLong)
	for s.keys < 2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
		s = <-got
	}
	if s.keys != 2 {
		t.Errorf("%d keys after the paste ended, want 2", s.keys)
	}
}

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
	// 1 MB a second each, with a burst of 8: read within a second on an
	// idle machine. On a busy one the bytes still in flight sit in SSH
	// buffers for a while: only a heap that stays above the bound (a
	// paste held whole, as before the fix) fails.
	time.Sleep(time.Second)
	grown := heapNow() - before
	for deadline := time.Now().Add(10 * time.Second); grown > int64(players*size/2) && time.Now().Before(deadline); {
		time.Sleep(200 * time.Millisecond)
		grown = heapNow() - before
	}
	for i, c := range cs { // the paste ends, then one wait: one turn
		c.Send(pasteClose + ".")
		screen, err := c.WaitFor(timeout(t), func(s string) bool { return atoi(turn(s)) > turns[i] })
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond) // any dot played as a key would show by now
		screen = c.Screen()
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
