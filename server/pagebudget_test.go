package server

import (
	"strings"
	"testing"

	"charm.land/log/v2"
)

// Open watch and replay pages together never fill the web's connections:
// a quarter of --http-max-conns stays for pages, so that sockets cannot
// shut visitors out (breaker: 384 watch sockets filled a cap of 384, the
// budget being 3,000). A host whose budgets do not fit is told at start.
func TestWatchAndReplayBudgetsLeaveAQuarterOfTheWebsConnectionsForPages(t *testing.T) {
	for _, c := range []struct {
		watchers, replays, conns, want int
	}{
		{3000, 32, 10000, 3000}, // the defaults fit
		{3000, 32, 384, 256},    // 384 - 96 - 32
		{100, 32, 8, 1},         // nothing fits: one still may watch
	} {
		if got := pageBudget(c.watchers, c.replays, c.conns); got != c.want {
			t.Errorf("pageBudget(%d watchers, %d replays, %d connections) = %d, want %d", c.watchers, c.replays, c.conns, got, c.want)
		}
	}
	var logs lockedBuffer
	lim := DefaultLimits()
	lim.MaxHTTPConns, lim.MaxWatchers, lim.MaxReplays = 40, 100, 4
	srv, _ := serve(t, Config{HTTP: "127.0.0.1:0", Limits: lim, Logger: log.New(&logs)})
	_ = srv
	if !strings.Contains(logs.String(), "--max-watchers") || !strings.Contains(logs.String(), "watchers=26") {
		t.Errorf("a watchers' budget of 100 beside 40 web connections: the log does not say it was lowered to 26:\n%s", logs.String())
	}
}
