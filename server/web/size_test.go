package web

// Tests of the sizes a page may claim and send: a watcher's program is no
// larger than what the game draws (a page claiming 500x300 cost 35 MB), a
// flood of resizes reaches the program coalesced, and the watchers' budget.

import (
	"context"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/vt"
	"github.com/coder/websocket"

	"github.com/grotto-game/grotto/server/winsize"
)

// drawnWidth and drawnHeight are the most a screen of grotto draws, in
// cells: the level (game.MapWidth x game.MapHeight, 80x43) with the
// status line and five lines of messages below it, and room beside it for
// the status line's long form (the level's name shows from 100 columns).
const drawnWidth, drawnHeight = 120, 50

// resizeEvery is the most often a program may be handed a new size, the
// same for a page as for an SSH session's window-changes.
const resizeEvery = winsize.Interval

// extent returns the columns and rows of emu's screen that hold anything
// but blanks: the rightmost column plus one and the lowest row plus one.
func extent(emu *vt.Emulator) (cols, rows int) {
	for y := range emu.Height() {
		for x := range emu.Width() {
			if c := emu.CellAt(x, y); c != nil && strings.TrimSpace(c.Content) != "" {
				cols, rows = max(cols, x+1), max(rows, y+1)
			}
		}
	}
	return cols, rows
}

// A watch page claiming 500x300 (as a hostile page may) is drawn no larger
// than the game draws: in the top-left of its terminal, nothing beyond.
// Before: the program was 500x300, and each such watcher held 35 MB of
// screen buffers (BenchmarkWatcherMemory).
func TestAWatchPageClaiming500x300IsDrawnNoLargerThanTheGame(t *testing.T) {
	s := newSite(t, Config{})
	slot := s.play(t, "bob", 1, 0)
	c := dialSized(t, s, slot.ID(), 500, 300)
	defer c.CloseNow()
	emu := vt.NewEmulator(500, 300)
	go func() {
		buf := make([]byte, 256)
		for {
			if _, err := emu.Read(buf); err != nil {
				return
			}
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	for !strings.Contains(emu.String(), "help") {
		_, data, err := c.Read(ctx)
		if err != nil {
			t.Fatalf("no frame drawn: %v", err)
		}
		emu.Write(data)
	}
	if w, h := extent(emu); w > drawnWidth || h > drawnHeight {
		t.Errorf("a watch page of 500x300 was drawn over %dx%d cells, want at most %dx%d (what the game draws)", w, h, drawnWidth, drawnHeight)
	}
}

// sizeModel is a program that hands on every WindowSizeMsg it gets.
type sizeModel struct{ got chan tea.WindowSizeMsg }

func (m sizeModel) Init() tea.Cmd { return nil }
func (m sizeModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if s, ok := msg.(tea.WindowSizeMsg); ok {
		m.got <- s
	}
	return m, nil
}
func (m sizeModel) View() tea.View { return tea.NewView("grotto") }

// sizePlayers plays a sizeModel on every play page.
type sizePlayers struct{ got chan tea.WindowSizeMsg }

func (sizePlayers) Admit(string) error { return nil }
func (p sizePlayers) Play(seat *Seat) {
	prog := tea.NewProgram(sizeModel{p.got}, append(seat.Options(), tea.WithInput(seat.Keys()))...)
	seat.Run(prog)
	seat.End("", true)
}

// sizesUntil reads the sizes on got until one is want, within waitLong,
// and returns them all.
func sizesUntil(t *testing.T, got <-chan tea.WindowSizeMsg, want tea.WindowSizeMsg) []tea.WindowSizeMsg {
	t.Helper()
	var all []tea.WindowSizeMsg
	timeout := time.After(waitLong)
	for {
		select {
		case s := <-got:
			all = append(all, s)
			if s == want {
				return all
			}
		case <-timeout:
			t.Fatalf("the program never got %+v; it got %d sizes, the last %+v", want, len(all), all[len(all)-1:])
		}
	}
}

// pageSockets are the three kinds of page that send sizes, each as a
// WebSocket to a program of sizeModel, started at cols x rows.
func pageSockets(t *testing.T, cols, rows int) map[string]func() (*websocket.Conn, <-chan tea.WindowSizeMsg) {
	bridged := func(keys map[string]tea.KeyPressMsg) func() (*websocket.Conn, <-chan tea.WindowSizeMsg) {
		return func() (*websocket.Conn, <-chan tea.WindowSizeMsg) {
			got := make(chan tea.WindowSizeMsg, 1<<16)
			hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				conn, err := websocket.Accept(w, r, nil)
				if err != nil {
					return
				}
				b := newBridge(context.Background(), conn, waitLong)
				b.keys = keys
				defer b.finish()
				b.run(sizeModel{got}, cols, rows, 30, func(*tea.Program) func() { return func() {} })
			}))
			t.Cleanup(hs.Close)
			ctx, cancel := context.WithTimeout(context.Background(), waitLong)
			defer cancel()
			c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(hs.URL, "http"), nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { c.CloseNow() })
			return c, got
		}
	}
	return map[string]func() (*websocket.Conn, <-chan tea.WindowSizeMsg){
		"watch":  bridged(nil),
		"replay": bridged(replayKeys),
		"play": func() (*websocket.Conn, <-chan tea.WindowSizeMsg) {
			got := make(chan tea.WindowSizeMsg, 1<<16)
			s := newSite(t, Config{Players: sizePlayers{got}})
			s.srv.cfg.Tokens = s.db
			path, err := s.srv.IssueLink(context.Background(), "SHA256:ann")
			if err != nil {
				t.Fatal(err)
			}
			jar, _ := cookiejar.New(nil)
			browser := &http.Client{Jar: jar, Timeout: waitLong}
			resp, err := browser.Get(s.http.URL + path)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			ctx, cancel := context.WithTimeout(context.Background(), waitLong)
			defer cancel()
			u := fmt.Sprintf("ws%s/play/ws?cols=%d&rows=%d", strings.TrimPrefix(s.http.URL, "http"), cols, rows)
			c, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPClient: browser})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { c.CloseNow() })
			return c, got
		},
	}
}

// A page claiming 500x300, at first or in a resize, gives its program no
// more than what the game draws, whichever page it is.
func TestAPageClaiming500x300GivesItsProgramNoMoreThanTheGameDraws(t *testing.T) {
	for kind, open := range pageSockets(t, 500, 300) {
		t.Run(kind, func(t *testing.T) {
			c, got := open()
			first := sizesUntil(t, got, tea.WindowSizeMsg{Width: min(500, drawnWidth), Height: min(300, drawnHeight)})
			if len(first) != 1 {
				t.Errorf("the first sizes: %+v", first)
			}
			ctx, cancel := context.WithTimeout(context.Background(), waitLong)
			defer cancel()
			for _, m := range []string{`{"cols":90,"rows":30}`, `{"cols":500,"rows":300}`} {
				if err := c.Write(ctx, websocket.MessageText, []byte(m)); err != nil {
					t.Fatal(err)
				}
			}
			for _, s := range sizesUntil(t, got, tea.WindowSizeMsg{Width: drawnWidth, Height: drawnHeight}) {
				if s.Width > drawnWidth || s.Height > drawnHeight {
					t.Errorf("a resize to 500x300 gave the program %dx%d, want at most %dx%d", s.Width, s.Height, drawnWidth, drawnHeight)
				}
			}
		})
	}
}

// A flood of resizes on any page (20 sockets sending 25,000 sizes each
// once held other players' keys up to 2.2 s) reaches its program as a few
// sizes, at most one per resizeEvery after the first, the newest last.
func TestAResizeFloodReachesThePagesProgramAsAFewSizesTheNewestLast(t *testing.T) {
	const flood = 2000
	for kind, open := range pageSockets(t, 80, 24) {
		t.Run(kind, func(t *testing.T) {
			c, got := open()
			sizesUntil(t, got, tea.WindowSizeMsg{Width: 80, Height: 24})
			ctx, cancel := context.WithTimeout(context.Background(), waitLong)
			defer cancel()
			start := time.Now()
			for i := range flood {
				m := `{"cols":100,"rows":30}`
				if i%2 == 1 {
					m = `{"cols":90,"rows":28}`
				}
				if err := c.Write(ctx, websocket.MessageText, []byte(m)); err != nil {
					t.Fatal(err)
				}
			}
			if err := c.Write(ctx, websocket.MessageText, []byte(`{"cols":81,"rows":25}`)); err != nil {
				t.Fatal(err)
			}
			sizes := sizesUntil(t, got, tea.WindowSizeMsg{Width: 81, Height: 25})
			most := 2 + int(time.Since(start)/resizeEvery)
			t.Logf("%d sizes sent in %v, %d reached the program", flood+1, time.Since(start), len(sizes))
			if len(sizes) > most {
				t.Errorf("%d of %d sizes reached the program in %v, want at most one per %v (%d)", len(sizes), flood+1, time.Since(start), resizeEvery, most)
			}
		})
	}
}

// dialSized opens a watch page's WebSocket claiming cols x rows.
func dialSized(tb testing.TB, s *site, id uint64, cols, rows int) *websocket.Conn {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	u := fmt.Sprintf("ws%s/watch/%d/ws?cols=%d&rows=%d", strings.TrimPrefix(s.http.URL, "http"), id, cols, rows)
	c, _, err := websocket.Dial(ctx, u, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// drawn reads c until its output has drawn the status line's help hint
// (the end of a first frame), then drains it in the background until it
// closes.
func drawn(tb testing.TB, c *websocket.Conn) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	var tail []byte
	for !strings.Contains(string(tail), "help") {
		_, data, err := c.Read(ctx)
		if err != nil {
			tb.Fatalf("no frame drawn: %v", err)
		}
		tail = append(tail, data...)
		if len(tail) > 4096 {
			tail = tail[len(tail)-4096:]
		}
	}
	go func() {
		for {
			if _, _, err := c.Read(context.Background()); err != nil {
				return
			}
		}
	}()
}

func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// BenchmarkWatcherMemory measures the live heap one watch page holds
// (bytes/watcher) once drawn, at the size it claims: 20 pages of one game.
func BenchmarkWatcherMemory(b *testing.B) {
	const pages = 20
	for _, size := range []struct{ cols, rows int }{{80, 24}, {500, 300}} {
		b.Run(fmt.Sprintf("%dx%d", size.cols, size.rows), func(b *testing.B) {
			s := newSite(b, Config{})
			slot := s.play(b, "bob", 1, 0)
			var per float64
			for range b.N {
				before := liveHeap()
				conns := make([]*websocket.Conn, pages)
				for i := range conns {
					conns[i] = dialSized(b, s, slot.ID(), size.cols, size.rows)
					drawn(b, conns[i])
				}
				after := liveHeap()
				per += (float64(after) - float64(before)) / pages
				for _, c := range conns {
					c.Close(websocket.StatusNormalClosure, "")
				}
			}
			b.ReportMetric(per/float64(b.N), "bytes/watcher")
		})
	}
}
