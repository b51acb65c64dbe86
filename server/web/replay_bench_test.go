package web

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/coder/websocket"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/replay"
	"github.com/grotto-game/grotto/game/tui"
)

// longReplay serves finished game "1": 2,000 waits, so that G (to the
// end) has a game to simulate.
type longReplay struct{}

func (longReplay) ReplayGame(id string) (tui.ReplayGame, error) {
	data := content.Default()
	g := game.New(3, data)
	for range 2000 {
		g.Apply(game.Wait())
	}
	hist, _ := g.HistoryBlob()
	r, err := replay.New(replay.Record{Seed: 3, Rules: game.Rules(data), History: hist}, data)
	return tui.ReplayGame{ID: 1, Name: "ann", Replay: r, Turns: g.Turn()}, err
}

func (longReplay) ReplayTitle(string) (string, error) { return "ann", nil }

// cpuSeconds is the process's CPU time so far, user and system.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// BenchmarkReplayPagesSpammingG: 100 replay pages at 120x50
// each sending {"key":"G"} 200 times a second (10 every 50 ms: as fast as
// the pages' own cost, in the same process, stays small) for 20 s, on a
// game of 2,000 turns; it reports the process's CPU seconds (pages and
// server alike) and the keys the replay programs were given.
func BenchmarkReplayPagesSpammingG(b *testing.B) {
	const pages, spell = 100, 20 * time.Second
	for range b.N {
		s := newSite(b, Config{Replays: longReplay{}, MaxWatchers: 1000, MaxReplays: 1000})
		var n keysCounted
		s.srv.replayModel = func(m tea.Model) tea.Model { return countKeys{m, &n.Int64} }
		ctx, cancel := context.WithTimeout(context.Background(), spell)
		var wg sync.WaitGroup
		start := cpuSeconds()
		for range pages {
			c, _, err := websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(s.http.URL, "http")+"/replay/1/ws?cols=120&rows=50", nil)
			if err != nil {
				b.Fatal(err)
			}
			go func() {
				for {
					if _, _, err := c.Read(context.Background()); err != nil {
						return
					}
				}
			}()
			wg.Go(func() {
				tick := time.NewTicker(50 * time.Millisecond)
				defer tick.Stop()
			flood:
				for ctx.Err() == nil {
					for range 10 {
						if c.Write(ctx, websocket.MessageText, []byte(`{"key":"G"}`)) != nil {
							break flood
						}
					}
					select {
					case <-tick.C:
					case <-ctx.Done():
					}
				}
				c.CloseNow()
			})
		}
		wg.Wait()
		cancel()
		b.ReportMetric(cpuSeconds()-start, "cpu-s")
		b.ReportMetric(float64(n.Load()), "keys")
	}
}

// keysCounted counts the keys a benchmark's programs were given.
type keysCounted struct{ atomic.Int64 }
