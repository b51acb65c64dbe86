package server

// Tests of the sizes a player's terminal may claim (one claiming 500x300
// cost 33 MB before sizes were clamped to what the game draws) and of the
// watchers' budget.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"charm.land/log/v2"
	"github.com/coder/websocket"
	gossh "golang.org/x/crypto/ssh"

	"github.com/grotto-game/grotto/internal/sshtest"
	"github.com/grotto-game/grotto/server/winsize"
)

// drawnWidth and drawnHeight are the most a screen of grotto draws, in
// cells: the level (80x43) with its status line and five lines of
// messages, and room beside it for the status line's long form.
const drawnWidth, drawnHeight = 120, 50

// drawnExtent returns the columns and rows of screen that hold anything but
// blanks.
func drawnExtent(screen string) (cols, rows int) {
	for y, line := range strings.Split(screen, "\n") {
		if line = strings.TrimRight(line, " "); line != "" {
			cols, rows = max(cols, utf8.RuneCountInString(line)), y+1
		}
	}
	return cols, rows
}

// An SSH player whose terminal claims 500x300 (at first, then after a
// resize) is drawn in the top-left, no larger than the game draws: the
// session's program, and its screen buffers, are no larger either. Before:
// 500x300, 35 MB of buffers a session (web.BenchmarkWatcherMemory).
func TestAnSSHSessionClaiming500x300IsDrawnNoLargerThanTheGame(t *testing.T) {
	_, addr := serve(t, Config{})
	c := dial(t, addr, newKey(t), 500, 300)
	screen := title(t, c)
	if w, h := drawnExtent(screen); w > drawnWidth || h > drawnHeight {
		t.Errorf("a terminal of 500x300 was drawn over %dx%d cells, want at most %dx%d:\n%s", w, h, drawnWidth, drawnHeight, screen)
	}
	c.Send("n")
	screen = waitText(t, c, "Turn: 0")
	if w, h := drawnExtent(screen); w > drawnWidth || h > drawnHeight {
		t.Errorf("the play screen at 500x300 was drawn over %dx%d cells, want at most %dx%d", w, h, drawnWidth, drawnHeight)
	}
}

// The same for a window-change: a player's terminal of 80x24 resized to
// 500x300 is redrawn at the game's size, in the top-left.
func TestAnSSHWindowChangeTo500x300IsDrawnNoLargerThanTheGame(t *testing.T) {
	_, addr := serve(t, Config{})
	c := dial(t, addr, newKey(t), 80, 24)
	title(t, c)
	c.Send("n")
	waitText(t, c, "Turn: 0")
	if err := c.Resize(500, 300); err != nil {
		t.Fatal(err)
	}
	// Redrawn once the status line (which spans the width) is wider than 80.
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	screen, err := c.WaitFor(ctx, func(s string) bool {
		w, _ := drawnExtent(s)
		return w > 80 && strings.Contains(s, "help")
	})
	if err != nil {
		t.Fatal(err)
	}
	if w, h := drawnExtent(screen); w > drawnWidth || h > drawnHeight {
		t.Errorf("after a resize to 500x300 the play screen was drawn over %dx%d cells, want at most %dx%d", w, h, drawnWidth, drawnHeight)
	}
}

// --max-watchers is the watchers' budget: past it a new watch page is
// told why, on the page, and refused; the player's game goes on.
func TestWatchersPastMaxWatchersAreToldWhy(t *testing.T) {
	lim := DefaultLimits()
	lim.ConnPer10s, lim.MaxWatchers = 10000, 1
	srv, addr := serve(t, Config{HTTP: "127.0.0.1:0", Limits: lim})
	base := "http://" + srv.HTTPAddr().String()
	player := dial(t, addr, newKey(t), 100, 30)
	name := fmt.Sprintf("budget%d", names.Add(1))
	namedGame(t, player, name)
	links, _ := webGames(t, base)
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	u := "ws" + strings.TrimPrefix(base, "http") + links[name] + "/ws?cols=80&rows=24"
	first, _, err := websocket.Dial(ctx, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer first.CloseNow()
	waitText(t, player, "watched by 1")
	second, _, err := websocket.Dial(ctx, u, nil)
	if err != nil {
		t.Fatalf("the watcher past the budget got no page to read the reason on: %v", err)
	}
	defer second.CloseNow()
	var ce websocket.CloseError
	for {
		if _, _, err := second.Read(ctx); err != nil {
			if !errors.As(err, &ce) {
				t.Fatalf("the second watcher's page ended without a reason: %v", err)
			}
			break
		}
	}
	if ce.Code != websocket.StatusTryAgainLater || !strings.Contains(ce.Reason, "Too many people are watching") {
		t.Errorf("the watcher past --max-watchers 1: %v %q, want 1013 saying too many are watching", ce.Code, ce.Reason)
	}
	walk(t, player, 1) // the game goes on
}

// BenchmarkSessionMemory measures the live heap one SSH player's session
// holds (bytes/session) on its first screen, at the size its PTY claims:
// 10 sessions of new keys, read without a terminal emulator (a raw
// client), so that only the server's memory is counted.
func BenchmarkSessionMemory(b *testing.B) {
	const sessions = 10
	for _, size := range []struct{ cols, rows int }{{80, 24}, {500, 300}} {
		b.Run(fmt.Sprintf("%dx%d", size.cols, size.rows), func(b *testing.B) {
			srv, err := newServer(b, Config{Listen: "127.0.0.1:0", DataDir: b.TempDir(), Logger: log.New(io.Discard),
				Limits: Limits{IdleTimeout: time.Hour, HandshakeTimeout: 20 * time.Second, KeepAlive: 30 * time.Second,
					MaxSessions: 100, ConnPer10s: 10000, InputBytesPerSec: 1 << 20}})
			if err != nil {
				b.Fatal(err)
			}
			if err := srv.Listen(); err != nil {
				b.Fatal(err)
			}
			go srv.Serve()
			defer srv.Shutdown(context.Background())
			var per float64
			for range b.N {
				before := liveHeap()
				var conns []*gossh.Client
				for range sessions {
					key, _ := sshtest.NewKey()
					conn, err := gossh.Dial("tcp", srv.Addr().String(), &gossh.ClientConfig{User: "bench", Auth: []gossh.AuthMethod{gossh.PublicKeys(key)},
						HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: waitLong})
					if err != nil {
						b.Fatal(err)
					}
					conns = append(conns, conn)
					sess, err := conn.NewSession()
					if err != nil {
						b.Fatal(err)
					}
					out, _ := sess.StdoutPipe()
					sess.RequestPty("xterm-256color", size.rows, size.cols, nil)
					if err := sess.Shell(); err != nil {
						b.Fatal(err)
					}
					seen := make(chan struct{})
					go func() { // until the first screen (the name to choose), then drained
						var tail []byte
						found := false
						buf := make([]byte, 4096)
						for {
							n, err := out.Read(buf)
							if err != nil {
								return
							}
							if found {
								continue
							}
							if tail = append(tail, buf[:n]...); strings.Contains(string(tail), "name") {
								found, tail = true, nil
								close(seen)
							} else if len(tail) > 8192 {
								tail = tail[len(tail)-8192:]
							}
						}
					}()
					select {
					case <-seen:
					case <-time.After(waitLong):
						b.Fatal("no first screen")
					}
				}
				after := liveHeap()
				per += (float64(after) - float64(before)) / sessions
				for _, c := range conns {
					c.Close()
				}
			}
			b.ReportMetric(per/float64(b.N), "bytes/session")
		})
	}
}

func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// BenchmarkAPlayersKeyDuringAWatchPageResizeFlood measures how long a
// player waits for a key's turn to show while 4 watch pages of their game
// alternate their size between 500x300 and 80x24 as fast as they can
// (20 such pages once held other players' keys up to 2.2 s). It
// reports the p50 and p99 in ms.
func BenchmarkAPlayersKeyDuringAWatchPageResizeFlood(b *testing.B) {
	for _, flood := range []bool{false, true} {
		name := "quiet"
		if flood {
			name = "flood"
		}
		b.Run(name, func(b *testing.B) {
			srv, err := newServer(b, Config{Listen: "127.0.0.1:0", HTTP: "127.0.0.1:0", DataDir: b.TempDir(), Logger: log.New(io.Discard),
				Limits: Limits{IdleTimeout: time.Hour, HandshakeTimeout: 20 * time.Second, KeepAlive: 30 * time.Second,
					MaxSessions: 100, ConnPer10s: 10000, InputBytesPerSec: 1 << 20}})
			if err != nil {
				b.Fatal(err)
			}
			if err := srv.Listen(); err != nil {
				b.Fatal(err)
			}
			go srv.Serve()
			defer srv.Shutdown(context.Background())
			key, _ := sshtest.NewKey()
			c, err := sshtest.Dial(srv.Addr().String(), key, sshtest.Options{Width: 100, Height: 30, User: "victim"})
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			if _, err := c.WaitForText(waitLong, "Choose the name"); err != nil {
				b.Fatal(err)
			}
			c.Send("\x15victim\r")
			if _, err := c.WaitForText(waitLong, "New game"); err != nil {
				b.Fatal(err)
			}
			c.Send("n")
			if _, err := c.WaitForText(waitLong, "Turn: 0"); err != nil {
				b.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if flood {
				base := "http://" + srv.HTTPAddr().String()
				var link string
				for deadline := time.Now().Add(waitLong); link == "" && time.Now().Before(deadline); {
					links, _ := webGames(b, base)
					link = links["victim"]
				}
				flooding := make(chan struct{}, 4)
				for range 4 {
					ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+link+"/ws?cols=80&rows=24", nil)
					if err != nil {
						b.Fatal(err)
					}
					defer ws.CloseNow()
					go func() {
						for {
							if _, _, err := ws.Read(ctx); err != nil {
								return
							}
						}
					}()
					go func() {
						for i := 0; ctx.Err() == nil; i++ {
							m := `{"cols":500,"rows":300}`
							if i%2 == 1 {
								m = `{"cols":80,"rows":24}`
							}
							if ws.Write(ctx, websocket.MessageText, []byte(m)) != nil {
								return
							}
							if i == winsize.ReportBurst { // past its burst: the page floods at the rate it is read
								flooding <- struct{}{}
							}
						}
					}()
				}
				for range 4 {
					recv(b, "a watch page's resize flood to be under way", flooding)
				}
			}
			waits := make([]time.Duration, 0, b.N)
			shown := 0
			b.ResetTimer()
			for range b.N {
				t0 := time.Now()
				c.Send(".")
				want := shown + 1
				wctx, wcancel := context.WithTimeout(context.Background(), waitLong)
				_, err := c.WaitFor(wctx, func(s string) bool { return sshtest.Turn(s) >= want })
				wcancel()
				if err != nil {
					b.Fatal(err)
				}
				waits = append(waits, time.Since(t0))
				shown = want
			}
			b.StopTimer()
			slices.Sort(waits)
			b.ReportMetric(float64(waits[len(waits)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(waits[len(waits)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}
