package server

import (
	"context"
	"errors"
	"io"
	"sync"
	"testing"
	"time"

	"charm.land/log/v2"

	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/server/lobby"
	"github.com/grotto-game/grotto/store"
	"github.com/grotto-game/grotto/store/storetest"
)

// TestTheSessionsOfAKeyOnANodeShareItsLeaseAndTheLastReleasesIt: many
// sessions of a few keys acquire and release at once while the renew loop
// runs (run with -race); once all have let go, the node holds nothing and
// another node claims every key at once, at a later epoch.
func TestTheSessionsOfAKeyOnANodeShareItsLeaseAndTheLastReleasesIt(t *testing.T) {
	db := storetest.TempBolt(t)
	s := &Server{log: log.New(io.Discard), store: db, place: placement{leases: newNodeLeases(db, "node-a", MinLeaseTTL), nodes: &nodes{}, clock: time.Now}}
	s.place.leases.ttl = 30 * time.Millisecond // the loop renews every 10 ms: often, to race the sessions
	stop := make(chan struct{})
	loop := make(chan struct{})
	go func() { s.place.leases.renewLoop(stop, s.log); close(loop) }()
	keys := []string{"SHA256:a", "SHA256:b", "SHA256:c"}
	var wg sync.WaitGroup
	for i := range 24 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fp := keys[i%len(keys)]
			l := &sessionLease{nl: s.place.leases, st: db, fp: fp}
			for range 20 {
				if err := l.acquire(); err != nil {
					t.Error(err)
					return
				}
				if err := l.PutSave(fp, []byte("x")); err != nil && !errors.Is(err, store.ErrFenced) {
					t.Error(err)
				}
				l.release()
			}
		}()
	}
	within(t, "the sessions to let go", wg.Wait)
	close(stop)
	recv(t, "the lease loop to stop", loop)
	if n := len(s.place.leases.held); n != 0 {
		t.Errorf("the node still holds %d leases after every session let go", n)
	}
	for _, fp := range keys {
		if epoch, err := db.Claim(context.Background(), fp, "node-b", time.Minute); err != nil || epoch < 2 {
			t.Errorf("node B claims %s: epoch %d, %v; want it at once, after node A's epochs", fp, epoch, err)
		}
	}
}

// TestAWriteWithoutALeaseIsFencedAndAfterALostLeaseNeverReachesTheStore:
// a session writes only under a lease, and once a write was fenced it
// stops writing for good (no retry reaches the store) and is told once.
func TestAWriteWithoutALeaseIsFencedAndAfterALostLeaseNeverReachesTheStore(t *testing.T) {
	db := storetest.TempBolt(t)
	nl := newNodeLeases(db, "node-a", time.Minute)
	told := 0
	l := &sessionLease{nl: nl, st: db, fp: "SHA256:a", n: lobby.NotifierFunc(func(lobby.Event) { told++ })}
	if err := l.PutSave("SHA256:a", []byte("x")); !errors.Is(err, store.ErrFenced) {
		t.Fatalf("a write before any lease: %v, want ErrFenced", err)
	}
	if err := l.acquire(); err != nil {
		t.Fatal(err)
	}
	if err := l.PutSave("SHA256:a", []byte("mine")); err != nil {
		t.Fatal(err)
	}
	// The lease lapses and node B claims the key.
	db.Release(context.Background(), "SHA256:a", nl.node, 1)
	if _, err := db.Claim(context.Background(), "SHA256:a", "node-b", time.Minute); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if err := l.AppendJournal("SHA256:a", uint64(i), []byte("late")); !errors.Is(err, store.ErrFenced) {
			t.Fatalf("a write after the lease moved on: %v, want ErrFenced", err)
		}
	}
	if !l.wasLost() || told != 1 {
		t.Errorf("lost %v, told %d times; want lost, told once", l.wasLost(), told)
	}
	if blob, err := db.Save("SHA256:a"); err != nil || string(blob) != "mine" {
		t.Errorf("the store holds %q (%v), want the last write under the lease", blob, err)
	}
	if n, _ := db.Journal("SHA256:a"); len(n) != 0 {
		t.Errorf("%d late journal entries reached the store", len(n))
	}
}

// TestANodeThatLostTheLeaseCannotQuarantineTheNewOwnersSave: node A's
// session reads a save it cannot decode after node B took the key over;
// setting it aside would delete B's game, so it is refused (fenced), the
// save stays where it is and the session is told its lease moved on.
func TestANodeThatLostTheLeaseCannotQuarantineTheNewOwnersSave(t *testing.T) {
	db := storetest.TempBolt(t)
	s := &Server{log: log.New(io.Discard), store: db, data: content.Default(), place: placement{leases: newNodeLeases(db, "node-a", time.Minute), nodes: &nodes{}, clock: time.Now}}
	const fp = "SHA256:a"
	told := 0
	l := &sessionLease{nl: s.place.leases, st: db, fp: fp, n: lobby.NotifierFunc(func(lobby.Event) { told++ })}
	if err := l.acquire(); err != nil {
		t.Fatal(err)
	}
	defer l.release()
	// Node A pauses; its lease lapses; node B claims the key and saves a
	// game that node A cannot read (B's own business).
	db.Release(context.Background(), fp, s.place.leases.node, 1)
	epoch, err := db.Claim(context.Background(), fp, "node-b", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Fenced(fp, epoch).PutSave(fp, []byte("B's game, unreadable here")); err != nil {
		t.Fatal(err)
	}
	play := s.newPlay(fp, &sessionLobby{srv: s, fp: fp, lease: l}, log.New(io.Discard))
	if _, news, err := play.Open(); err == nil {
		t.Errorf("node A opened B's game: news %q, no error; want it kept and not set aside", news)
	}
	if blob, err := db.Save(fp); err != nil || string(blob) != "B's game, unreadable here" {
		t.Errorf("B's save after node A's open: %q, %v; want it in place", blob, err)
	}
	if qs, _ := db.Quarantined(""); len(qs) != 0 {
		t.Errorf("node A set aside %d records of B's game", len(qs))
	}
	if !l.wasLost() || told != 1 {
		t.Errorf("lost %v, told %d times; want the session told once that its lease moved on", l.wasLost(), told)
	}
}
