package server

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sync"
	"testing"
	"time"

	"charm.land/log/v2"

	"github.com/grotto-game/grotto/internal/await"
	"github.com/grotto-game/grotto/internal/sshtest"
	"github.com/grotto-game/grotto/store/bolt"
)

// BenchmarkDurability measures, side by side in one run, what making every
// turn durable costs: 30 players pressing keys at once, with the journal
// (each turn fsync'd, group-committed, before it is drawn) and without it.
// Run: go test -run x -bench Durability -benchtime 1x ./server
func BenchmarkDurability(b *testing.B) {
	for _, journal := range []bool{true, false} {
		name := "journal"
		if !journal {
			name = "no-journal"
		}
		b.Run(name, func(b *testing.B) {
			lim := DefaultLimits()
			lim.ConnPer10s = 100000
			srv, err := newServer(b, Config{Listen: "127.0.0.1:0", DataDir: b.TempDir(), Logger: log.New(io.Discard), Limits: lim, NoJournal: !journal,
				NewSeed: func() uint64 { return 7 }}) // a start room no monster sees: nobody dies mid-run
			if err != nil {
				b.Fatal(err)
			}
			srv.Listen()
			go srv.Serve()
			defer srv.Shutdown(context.Background())
			const players, keys = 30, 40
			clients := make([]*sshtest.Client, players)
			for i := range clients {
				k, _ := sshtest.NewKey()
				c, err := sshtest.Dial(srv.Addr().String(), k, sshtest.Options{User: fmt.Sprintf("p%d", i)})
				if err != nil {
					b.Fatal(err)
				}
				defer c.Close()
				c.WaitForText(10*time.Second, "Choose the name")
				c.Send("\r")
				c.WaitForText(10*time.Second, "New game")
				c.Send("n")
				c.WaitForText(10*time.Second, "Turn: 0")
				clients[i] = c
			}
			for b.Loop() {
				commits0, began := srv.store.(*bolt.Store).JournalCommits(), time.Now()
				var mu sync.Mutex
				var lat []time.Duration
				var wg sync.WaitGroup
				for i, c := range clients {
					wg.Go(func() {
						await.Gap(time.Duration(i) * time.Millisecond) // staggered, not in lockstep: the gap is the scenario, no event stands for it
						for k := range keys {
							want := fmt.Sprintf("Turn: %d ", k+1)
							t0 := time.Now()
							c.Send(".")
							if _, err := c.WaitForText(10*time.Second, want); err != nil {
								b.Error(err)
								return
							}
							mu.Lock()
							lat = append(lat, time.Since(t0))
							mu.Unlock()
						}
					})
				}
				wg.Wait()
				elapsed := time.Since(began)
				slices.Sort(lat)
				b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
				b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
				b.ReportMetric(float64(srv.store.(*bolt.Store).JournalCommits()-commits0)/elapsed.Seconds(), "fsyncs/s")
				b.ReportMetric(float64(len(lat))/elapsed.Seconds(), "turns/s")
			}
		})
	}
}
