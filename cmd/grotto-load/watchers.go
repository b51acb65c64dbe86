package main

// This file: web watchers (--watchers): WebSocket clients of one SSH
// player's /watch/{id}/ws, from several loopback source addresses, as
// anonymous browsers would be, so that a run measures what watchers cost
// the player they watch and everyone else.

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// watchers is a crowd of web watchers of one game.
type watchers struct {
	cancel context.CancelFunc
	wg     sync.WaitGroup

	joined atomic.Int64  // watchers whose first message arrived
	failed atomic.Int64  // watchers refused before their first message
	cut    atomic.Int64  // watchers cut off after it (before stop)
	bytes  atomic.Int64  // received by all of them
	all    chan struct{} // closed once every watcher joined or failed
	n      int64
	began  time.Time
	doneAt atomic.Int64 // unix ns when the last joined or failed
}

// gameID finds the id of the live game listed under name on the front
// page of the web server at httpAddr.
func gameID(httpAddr, name string) (string, error) {
	resp, err := http.Get("http://" + httpAddr + "/")
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	page, err := io.ReadAll(io.LimitReader(resp.Body, 1<<22))
	if err != nil {
		return "", err
	}
	m := regexp.MustCompile(`<td>` + regexp.QuoteMeta(name) + `</td>.*?href="/watch/(\d+)"`).FindSubmatch(page)
	if m == nil {
		return "", fmt.Errorf("the front page of %s lists no game of %s", httpAddr, name)
	}
	return string(m[1]), nil
}

// watch starts n watchers of game id on the web server at httpAddr, at
// cols x rows, spread over addrs source addresses (127.0.0.2 and up),
// dial at a time. It returns at once; stop ends them.
func watch(httpAddr, id string, n, addrs, dial, cols, rows int, log func(string, ...any)) *watchers {
	ctx, cancel := context.WithCancel(context.Background())
	w := &watchers{cancel: cancel, all: make(chan struct{}), n: int64(n), began: time.Now()}
	settled := func() {
		if w.joined.Load()+w.failed.Load() == w.n {
			w.doneAt.Store(time.Now().UnixNano())
			close(w.all)
		}
	}
	if n == 0 {
		close(w.all)
		return w
	}
	clients := make([]*http.Client, max(1, addrs))
	for i := range clients {
		src := &net.TCPAddr{IP: net.IPv4(127, 0, 0, byte(2+i%250))}
		d := &net.Dialer{LocalAddr: src, Timeout: 30 * time.Second}
		clients[i] = &http.Client{Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: -1}}
	}
	url := fmt.Sprintf("ws://%s/watch/%s/ws?cols=%d&rows=%d", httpAddr, id, cols, rows)
	sem := make(chan struct{}, max(1, dial))
	var logged atomic.Int64
	for i := range n {
		w.wg.Go(func() {
			sem <- struct{}{}
			joined := false
			fail := func(err error) {
				if !joined {
					w.failed.Add(1)
					settled()
				} else if ctx.Err() == nil {
					w.cut.Add(1)
				}
				if ctx.Err() == nil && logged.Add(1) <= 5 {
					log("watcher %d: %v", i, err)
				}
			}
			dctx, dcancel := context.WithTimeout(ctx, 60*time.Second)
			c, _, err := websocket.Dial(dctx, url, &websocket.DialOptions{HTTPClient: clients[i%len(clients)]})
			dcancel()
			if err != nil {
				<-sem
				fail(err)
				return
			}
			defer c.CloseNow()
			c.SetReadLimit(1 << 22)
			for {
				_, msg, err := c.Read(ctx)
				if err != nil {
					if !joined {
						<-sem
					}
					fail(err)
					return
				}
				w.bytes.Add(int64(len(msg)))
				if !joined {
					joined = true
					<-sem
					w.joined.Add(1)
					settled()
				}
			}
		})
	}
	return w
}

// wait waits up to d for every watcher to join or fail, and returns how
// long they took from the start (0 if not all did in time).
func (w *watchers) wait(d time.Duration) time.Duration {
	select {
	case <-w.all:
		return time.Duration(w.doneAt.Load() - w.began.UnixNano())
	case <-time.After(d):
		return 0
	}
}

// stop closes every watcher and waits for them.
func (w *watchers) stop() {
	w.cancel()
	w.wg.Wait()
}
