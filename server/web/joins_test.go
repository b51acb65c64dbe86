package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"charm.land/log/v2"
	"github.com/coder/websocket"
)

// Watch pages join a game at a pace (Config.JoinsPerSec): a burst of
// joiners waits its turn, and one that would wait longer than
// Config.JoinWait is told why in its close, which the page shows, instead
// of every joiner at once costing the players their frames (breaker: 2,000
// watchers joining in 10 s held players' keys 1.1–1.6 s).
func TestWatchPagesJoinAtAPaceAndOneThatWouldWaitTooLongIsToldWhy(t *testing.T) {
	s, addr := serveReal(t, Config{JoinsPerSec: 0.001, JoinBurst: 2, JoinWait: 10 * time.Millisecond})
	slot := s.play(t, "bob", 1, 0)
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	url := fmt.Sprintf("ws://%s/watch/%d/ws?cols=80&rows=24", addr, slot.ID())
	for i := range 2 { // the burst: in at once
		c, _, err := websocket.Dial(ctx, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer c.CloseNow()
		if _, _, err := c.Read(ctx); err != nil {
			t.Fatalf("joiner %d of a burst of 2: %v, want a frame", i+1, err)
		}
	}
	c, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	_, _, err = c.Read(ctx)
	var ce websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != websocket.StatusTryAgainLater || !strings.Contains(ce.Reason, "starting to watch") {
		t.Errorf("a third joiner at 0.001 a second: %v, want 1013 and a sentence saying many are starting to watch", err)
	}
}

// A flood of pages past the watchers' budget is one warning in the log
// per 10 s, not one a page (breaker: 354 lines in 0.28 s).
func TestPagesRefusedPastTheBudgetAreOneLogLineNotOneEach(t *testing.T) {
	var logs syncBuffer
	s, addr := serveReal(t, Config{MaxWatchers: 1, Logger: log.New(&logs)})
	slot := s.play(t, "bob", 1, 0)
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	url := fmt.Sprintf("ws://%s/watch/%d/ws?cols=80&rows=24", addr, slot.ID())
	in, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer in.CloseNow()
	for i := range 20 {
		c, _, err := websocket.Dial(ctx, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = c.Read(ctx)
		c.CloseNow()
		if websocket.CloseStatus(err) != websocket.StatusTryAgainLater {
			t.Fatalf("page %d past a budget of 1: %v, want 1013", i+2, err)
		}
	}
	if n := strings.Count(logs.String(), "too many open"); n != 1 {
		t.Errorf("20 pages refused past the budget: %d log lines, want 1:\n%s", n, logs.String())
	}
}

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
