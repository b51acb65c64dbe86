package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"charm.land/log/v2"
	"github.com/charmbracelet/x/vt"
	"github.com/coder/websocket"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/frame"
	"github.com/grotto-game/grotto/game/tui"
)

// testPage is a page of a mirror whose terminal is an emulator; while
// gate is open (not closed) its every send waits, as a page that does not
// read.
type testPage struct {
	p    *mirrorPage
	done chan struct{}
	gate chan struct{}

	mu   sync.Mutex
	emu  *vt.Emulator
	sent chan struct{} // a token per send
}

func newTestPage(t *testing.T, ms *mirrors, g tui.LiveGame, cols, rows int, gate chan struct{}, queueMax int) *testPage {
	t.Helper()
	tp := &testPage{done: make(chan struct{}), gate: gate, emu: vt.NewEmulator(cols, rows), sent: make(chan struct{}, 1)}
	go io.Copy(io.Discard, tp.emu)
	tp.p = &mirrorPage{wake: make(chan struct{}, 1), done: tp.done, queueMax: queueMax, fail: func() {},
		send: func(msg []byte) error {
			if tp.gate != nil {
				select {
				case <-tp.gate:
				case <-tp.done:
					return io.ErrClosedPipe
				}
			}
			tp.mu.Lock()
			tp.emu.Write(msg)
			tp.mu.Unlock()
			select {
			case tp.sent <- struct{}{}:
			default:
			}
			return nil
		}}
	ms.join(g, mirrorSize{cols, rows}, tp.p)
	served := make(chan struct{})
	go func() { ms.serve(tp.p); close(served) }()
	t.Cleanup(func() {
		close(tp.done)
		recv(t, "the page's mirror to stop serving it", served)
		ms.leave(tp.p)
	})
	return tp
}

// screen returns the page's terminal: its text, its cells with their
// styles, and the cursor.
func (tp *testPage) screen() (text, styled string) {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	pos := tp.emu.CursorPosition()
	return tp.emu.String(), fmt.Sprintf("%s\ncursor %d,%d hidden %v alt %v", tp.emu.Render(), pos.X, pos.Y, tp.emu.CursorHidden(), tp.emu.IsAltScreen())
}

// until waits for ok to hold for the page's text, failing after waitLong.
func (tp *testPage) until(t *testing.T, what string, ok func(string) bool) string {
	t.Helper()
	deadline := time.After(waitLong)
	for {
		if text, _ := tp.screen(); ok(text) {
			return text
		}
		select {
		case <-tp.sent:
		case <-deadline:
			text, _ := tp.screen()
			t.Fatalf("the page never showed %s; it shows:\n%s", what, text)
		}
	}
}

// sameScreens waits for every page to show what pages[0] shows, cell by
// cell with styles and the cursor, failing after waitLong.
func sameScreens(t *testing.T, pages ...*testPage) {
	t.Helper()
	deadline := time.After(waitLong)
	for {
		_, want := pages[0].screen()
		same := true
		for _, tp := range pages[1:] {
			if _, got := tp.screen(); got != want {
				same = false
			}
		}
		if same {
			return
		}
		select {
		case <-pages[0].sent:
		case <-pages[len(pages)-1].sent:
		case <-time.After(20 * time.Millisecond): // the others' sends
		case <-deadline:
			for i, tp := range pages {
				text, _ := tp.screen()
				t.Logf("page %d:\n%s", i, text)
			}
			t.Fatal("the pages never showed the same screen")
		}
	}
}

// gameFrame is the frame of a new game of seed.
func gameFrame(t *testing.T, seed uint64) *frame.Frame {
	t.Helper()
	blob, err := game.New(seed, content.Default()).Encode()
	if err != nil {
		t.Fatal(err)
	}
	return frame.New(blob, nil)
}

// TestALateAndAResyncedPageSeeTheScreenOfAnEarlyOne: a page that joins a
// shared program mid-way, and one whose queue overflowed while it did not
// read, are each sent a whole screen and then show what a page that saw
// the whole stream shows; the page that does not read holds up nobody.
func TestALateAndAResyncedPageSeeTheScreenOfAnEarlyOne(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ms := newMirrors(ctx, content.Default(), WatchFPS, log.New(io.Discard), nil)
	g := tui.LiveGame{ID: 1, Name: "bob", Depth: 1}
	early := newTestPage(t, ms, g, 80, 24, nil, MirrorQueue)
	f := ms.games[1]
	ms.offer(f, gameFrame(t, 7))
	first := early.until(t, "the game", func(s string) bool { return strings.Contains(s, "Watching bob") })

	gate := make(chan struct{})
	slow := newTestPage(t, ms, g, 80, 24, gate, 512)
	ms.offer(f, gameFrame(t, 8))
	early.until(t, "the next frame", func(s string) bool { return s != first })
	if n := ms.announce("The server restarts at noon."); n != 2 {
		t.Errorf("the broadcast reached %d pages, want 2", n)
	}
	early.until(t, "the broadcast", func(s string) bool { return strings.Contains(s, "The server restarts at noon.") })
	if slow.p.resyncs.Load() == 0 {
		t.Error("the page that does not read still has all the output queued, past its bound")
	}

	late := newTestPage(t, ms, g, 80, 24, nil, MirrorQueue)
	close(gate) // the slow page reads again
	sameScreens(t, early, late, slow)
	// What is drawn next applies alike to each page's screen.
	before, _ := early.screen()
	ms.offer(f, gameFrame(t, 9))
	early.until(t, "the frame after", func(s string) bool { return s != before })
	sameScreens(t, early, late, slow)
	if n := ms.started.Load(); n != 1 {
		t.Errorf("%d programs were started for three pages of one game at one size, want 1", n)
	}
}

// TestTwoHundredWatchPagesOfOneGameAtOneSizeRunOneProgram: every page is
// drawn and counted as a watcher, yet one program draws them all; a page
// of another size (or one that resizes) is drawn by that size's program;
// the game's end closes every page saying so, and stops the programs.
func TestTwoHundredWatchPagesOfOneGameAtOneSizeRunOneProgram(t *testing.T) {
	s := newSite(t, Config{})
	slot := s.play(t, "bob", 1, 0)
	pages := make([]*websocket.Conn, 200)
	for i := range pages {
		pages[i] = dialSized(t, s, slot.ID(), 80, 24)
	}
	for _, c := range pages {
		screen(t, c, func(s string) bool { return strings.Contains(s, "Watching bob") })
	}
	if n := s.srv.mirrors.programs(); n != 1 {
		t.Errorf("200 pages of one game at 80x24 run %d programs, want 1", n)
	}
	if n := slot.Watchers(); n != 200 {
		t.Errorf("the game has %d watchers, want 200", n)
	}
	if n := s.srv.Announce("The server restarts at noon."); n != 200 {
		t.Errorf("Announce reached %d pages, want 200", n)
	}
	screen(t, pages[199], func(s string) bool { return strings.Contains(s, "The server restarts at noon.") })

	wide := dialSized(t, s, slot.ID(), 100, 30)
	screenAt(t, wide, 100, 30, func(s string) bool { return strings.Contains(s, "Watching bob") })
	if n := s.srv.mirrors.programs(); n != 2 {
		t.Errorf("pages at two sizes run %d programs, want 2", n)
	}
	// A page that resizes is drawn anew, whole, by the program of its new size.
	msg, _ := json.Marshal(resize{Cols: 100, Rows: 30})
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	if err := pages[0].Write(ctx, websocket.MessageText, msg); err != nil {
		t.Fatal(err)
	}
	screenAt(t, pages[0], 100, 30, func(s string) bool { return strings.Contains(s, "Watching bob") })
	if n := s.srv.mirrors.started.Load(); n != 2 {
		t.Errorf("%d programs were started, want 2 (80x24 and 100x30)", n)
	}

	slot.Release()
	for i, c := range append(pages, wide) {
		if ce := closed(t, c); ce.Code != websocket.StatusNormalClosure || ce.Reason != "The game has ended." {
			t.Fatalf("page %d closed with %v %q, want 1000 \"The game has ended.\"", i, ce.Code, ce.Reason)
		}
	}
	waitNoPrograms(t, s)
}

// waitNoPrograms waits for s's shared programs to stop, failing after
// waitLong.
func waitNoPrograms(t *testing.T, s *site) {
	t.Helper()
	done := make(chan struct{})
	go func() { s.srv.mirrors.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(waitLong):
		t.Fatalf("%d shared programs still run once every page has gone", s.srv.mirrors.programs())
	}
}

// TestShutdownClosesEverySharedPageSayingWhy: pages of one game at two
// sizes all close with 1001 ShutdownWatch and their programs stop.
func TestShutdownClosesEverySharedPageSayingWhy(t *testing.T) {
	s := newSite(t, Config{})
	slot := s.play(t, "bob", 1, 0)
	var pages []*websocket.Conn
	for _, size := range [][2]int{{80, 24}, {80, 24}, {90, 30}} {
		c := dialSized(t, s, slot.ID(), size[0], size[1])
		screenAt(t, c, size[0], size[1], func(s string) bool { return strings.Contains(s, "Watching bob") })
		pages = append(pages, c)
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- s.srv.Shutdown(ctx) }()
	for i, c := range pages {
		if ce := closed(t, c); ce.Code != websocket.StatusGoingAway || ce.Reason != ShutdownWatch {
			t.Errorf("page %d closed with %v %q, want 1001 %q", i, ce.Code, ce.Reason, ShutdownWatch)
		}
	}
	if err := recv(t, "Shutdown to return", done); err != nil {
		t.Errorf("Shutdown: %v", err)
	}
	waitNoPrograms(t, s)
	if n := slot.Watchers(); n != 0 {
		t.Errorf("%d watchers left after shutdown", n)
	}
}
