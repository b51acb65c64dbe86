package server

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

func TestRegistryAllowsOneLiveSessionPerKey(t *testing.T) {
	r := newRegistry()
	id, err := r.add("SHA256:a", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.add("SHA256:a", nil); !errors.Is(err, errAlreadyPlaying) {
		t.Errorf("second session of the same key: err = %v", err)
	}
	if _, err := r.add("SHA256:b", nil); err != nil {
		t.Errorf("another key was refused: %v", err)
	}
	r.remove(id)
	if _, err := r.add("SHA256:a", nil); err != nil {
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
			if _, err := r.add("SHA256:same", nil); err == nil {
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
	id, _ := r.add("SHA256:a", nil)
	r.mu.Lock()
	r.closing = true
	r.mu.Unlock()
	if _, err := r.add("SHA256:b", nil); !errors.Is(err, errClosing) {
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
