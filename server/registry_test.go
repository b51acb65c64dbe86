package server

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

func TestRegistryAllowsOneLiveSessionPerKey(t *testing.T) {
	r := newRegistry()
	id, err := r.add("SHA256:a", "p", nil, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.add("SHA256:a", "p", nil, time.Now()); !errors.Is(err, errAlreadyPlaying) {
		t.Errorf("second session of the same key: err = %v", err)
	}
	if _, err := r.add("SHA256:b", "p", nil, time.Now()); err != nil {
		t.Errorf("another key was refused: %v", err)
	}
	r.remove(id)
	if _, err := r.add("SHA256:a", "p", nil, time.Now()); err != nil {
		t.Errorf("the key could not play again after leaving: %v", err)
	}
}

func TestRegistryUnderConcurrentLoginsOfOneKeyAdmitsExactlyOne(t *testing.T) {
	r := newRegistry()
	var wg sync.WaitGroup
	var mu sync.Mutex
	admitted := 0
	for range 50 {
		wg.Go(func() {
			if _, err := r.add("SHA256:same", "p", nil, time.Now()); err == nil {
				mu.Lock()
				admitted++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if admitted != 1 {
		t.Errorf("%d sessions admitted for one key, want 1", admitted)
	}
}

func TestRegistryRefusesNewSessionsOnceClosingAndWaitsForTheLast(t *testing.T) {
	r := newRegistry()
	id, _ := r.add("SHA256:a", "p", nil, time.Now())
	r.mu.Lock()
	r.closing = true
	r.mu.Unlock()
	if _, err := r.add("SHA256:b", "p", nil, time.Now()); !errors.Is(err, errClosing) {
		t.Errorf("err = %v, want errClosing", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := r.wait(ctx); err == nil {
		t.Error("wait returned with a session still live")
	}
	go r.remove(id)
	if err := r.wait(context.Background()); err != nil {
		t.Error(err)
	}
}

func TestASlowWatcherGetsOnlyTheNewestFrameAndNeverBlocksThePlayer(t *testing.T) {
	r := newRegistry()
	id, _ := r.add("SHA256:a", "alice", nil, time.Now())
	frames, stop, ok := r.watch(id)
	if !ok {
		t.Fatal("cannot watch a live session")
	}
	defer stop()
	for i := range 1000 { // the watcher reads nothing meanwhile
		r.publish(id, 1, i, []byte{byte(i)}, time.Now())
	}
	if f := <-frames; f[0] != byte(999%256) {
		t.Errorf("watcher got frame %d, want the newest", f[0])
	}
	if got := r.list()[0]; got.Turn != 999 || got.Watchers != 1 || got.Name != "alice" {
		t.Errorf("list = %+v", got)
	}
	r.remove(id)
	if _, open := <-frames; open {
		t.Error("the watcher's channel stays open after the player left")
	}
}

func TestRegistryUnderConcurrentPlayersWatchersAndListing(t *testing.T) {
	r := newRegistry()
	var wg sync.WaitGroup
	for p := range 8 {
		wg.Go(func() {
			id, err := r.add(fmt.Sprintf("SHA256:%d", p), fmt.Sprintf("p%d", p), nil, time.Now())
			if err != nil {
				t.Error(err)
				return
			}
			for w := range 3 {
				wg.Go(func() {
					frames, stop, ok := r.watch(id)
					if !ok {
						return
					}
					for range 20 {
						select {
						case <-frames:
						default:
						}
					}
					_ = w
					stop()
				})
			}
			for turn := range 200 {
				r.publish(id, 1, turn, []byte("frame"), time.Now())
				r.list()
			}
			r.remove(id)
		})
	}
	wg.Wait()
	if r.len() != 0 {
		t.Errorf("%d sessions left", r.len())
	}
}
