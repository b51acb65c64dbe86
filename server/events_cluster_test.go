package server

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/grotto-game/grotto/internal/await"
	"github.com/grotto-game/grotto/internal/pgtest"
	"github.com/grotto-game/grotto/internal/sshtest"
	"github.com/grotto-game/grotto/server/events"
)

// hookReceiver is a webhook receiver that keeps the events it took.
type hookReceiver struct {
	mu  sync.Mutex
	got []events.Event
}

func (h *hookReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	e, err := events.Parse(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	h.mu.Lock()
	h.got = append(h.got, e)
	h.mu.Unlock()
}

func (h *hookReceiver) events() []events.Event {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]events.Event(nil), h.got...)
}

// TestEventsOfEveryNodeReachEveryNodesFeedAndOnlyTheirOwnNodePostsThem:
// on two nodes sharing PostgreSQL, `ssh host events` on node b follows
// the games played on node a, in order; a's webhook gets each of them
// once, b's none.
func TestEventsOfEveryNodeReachEveryNodesFeedAndOnlyTheirOwnNodePostsThem(t *testing.T) {
	url := pgtest.NewDatabase(t)
	hookA, hookB := &hookReceiver{}, &hookReceiver{}
	recvA, recvB := httptest.NewServer(hookA), httptest.NewServer(hookB)
	defer recvA.Close()
	defer recvB.Close()
	seed := func(c *Config) { c.NewSeed = func() uint64 { return 7 } }
	a, _ := serveNode(t, url, "node-a", 0, &lockedBuffer{}, seed, func(c *Config) { c.EventsWebhook = recvA.URL })
	b, addrB := serveNode(t, url, "node-b", 0, &lockedBuffer{}, seed, func(c *Config) { c.EventsWebhook = recvB.URL })
	nodesLive(t, a, 2)
	follower, err := sshtest.Dial(addrB, newKey(t), sshtest.Options{NoPTY: true, Command: "events"})
	if err != nil {
		t.Fatal(err)
	}
	defer follower.Close()
	await.Until(t, waitLong, "b's follower to begin", func() bool { return b.feed.hub.Followers() == 1 })

	playBot(t, a, "ann", 3000)
	made := a.feed.hub.Recent()
	if len(made) < 3 {
		t.Fatalf("node a made %d events, want a game's", len(made))
	}
	await.Until(t, waitLong, "b's follower to read every event of a's game", func() bool {
		return len(lines(t, follower.Output())) >= len(made)
	})
	if got := lines(t, follower.Output()); ids(got) != ids(made) {
		t.Errorf("b's follower read:\n%s\na made:\n%s", ids(got), ids(made))
	}
	await.Until(t, waitLong, "a's webhook to take every event", func() bool { return len(hookA.events()) >= len(made) })
	if ids(hookA.events()) != ids(made) {
		t.Errorf("a's webhook took:\n%s\na made:\n%s", ids(hookA.events()), ids(made))
	}
	for _, e := range made {
		if e.Node != "node-a" {
			t.Errorf("an event of a's game names node %q", e.Node)
		}
	}
	// b posts only its own games' events: one of b's own, once it is
	// posted, proves b's webhook had its chance at a's before it.
	playBot(t, b, "bob", 0)
	await.Until(t, waitLong, "b's webhook to take b's own event", func() bool { return len(hookB.events()) >= 1 })
	if got := hookB.events(); len(got) != 1 || got[0].Player != "bob" || got[0].Node != "node-b" {
		t.Errorf("b's webhook took %s; want bob's start only", ids(got))
	}
}
