package winsize

import (
	"context"
	"sync"
	"testing"
	"time"
)

const waitLong = 10 * time.Second

type size struct{ w, h int }

// A flood of sizes set from many goroutines at once reaches the program
// as a few, at most one per interval after the first, and the newest set
// last is the last handed on.
func TestAFloodFromManyGoroutinesIsHandedOnAsAFewSizesTheNewestLast(t *testing.T) {
	c := New[size]()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan size)
	const every = 20 * time.Millisecond
	go c.Deliver(ctx, every, func(s size) bool {
		select {
		case got <- s:
			return true
		case <-ctx.Done():
			return false
		}
	})
	start := time.Now()
	go func() {
		var wg sync.WaitGroup
		for g := range 8 {
			wg.Go(func() {
				for i := range 20000 {
					c.Set(size{80 + g, 24 + i%2})
					c.Current()
				}
			})
		}
		wg.Wait()
		c.Set(size{100, 30})
	}()
	var all []size
	for last := (size{}); last != (size{100, 30}); {
		select {
		case last = <-got:
			all = append(all, last)
		case <-time.After(waitLong):
			t.Fatalf("the newest size never arrived; got %d sizes", len(all))
		}
	}
	most := 2 + int(time.Since(start)/every)
	t.Logf("160,001 sizes set, %d handed on", len(all))
	if len(all) > most {
		t.Errorf("%d sizes handed on in %v, want at most one per %v (%d)", len(all), time.Since(start), every, most)
	}
	if s, ok := c.Current(); !ok || s != (size{100, 30}) {
		t.Errorf("Current is %v, %v; want the newest, {100 30}", s, ok)
	}
}

// The first size goes at once, however long the interval; the next waits
// for it, and meanwhile only the newest is kept.
func TestTheFirstSizeGoesAtOnceAndTheNextWaitsForTheInterval(t *testing.T) {
	c := New[size]()
	if _, ok := c.Current(); ok {
		t.Fatal("a new Coalescer has a size")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan size, 10)
	done := make(chan struct{})
	go func() {
		c.Deliver(ctx, time.Hour, func(s size) bool { got <- s; return true })
		close(done)
	}()
	c.Set(size{80, 24})
	select {
	case s := <-got:
		if s != (size{80, 24}) {
			t.Errorf("handed on %v, want {80 24}", s)
		}
	case <-time.After(waitLong):
		t.Fatal("the first size was not handed on at once")
	}
	c.Set(size{90, 30})
	c.Set(size{100, 40})
	if s, _ := c.Current(); s != (size{100, 40}) {
		t.Errorf("Current is %v, want the newest, {100 40}", s)
	}
	cancel()
	select {
	case <-done:
	case <-time.After(waitLong):
		t.Fatal("Deliver did not end with its context")
	}
	if len(got) != 0 {
		t.Errorf("sizes handed on within the interval: %d", len(got))
	}
}

// Deliver ends once send says the program has gone.
func TestDeliverEndsWhenTheProgramHasGone(t *testing.T) {
	c := New[size]()
	done := make(chan struct{})
	go func() {
		c.Deliver(context.Background(), time.Millisecond, func(size) bool { return false })
		close(done)
	}()
	c.Set(size{80, 24})
	select {
	case <-done:
	case <-time.After(waitLong):
		t.Fatal("Deliver went on after send returned false")
	}
}
