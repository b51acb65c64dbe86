package metrics

import (
	"reflect"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

// fakeClock is a KeyClock on a clock the test sets, observing into a slice.
func fakeClock() (*KeyClock, *int64, *[]float64) {
	var now int64 = 1
	var seen []float64
	k := &KeyClock{hist: prometheus.ObserverFunc(func(v float64) { seen = append(seen, v) }),
		clock: func() int64 { return now }}
	return k, &now, &seen
}

// The order of calls one key makes: read, given to the program, handled,
// then a frame drawn (written or not).
func TestAKeyThatDrawsNothingIsNotTimedToTheNextKeysFrame(t *testing.T) {
	k, now, seen := fakeClock()

	// A key that changes nothing on screen: handled, and the frame drawn
	// after writes nothing.
	*now = 1_000
	k.Read()
	k.Key()
	k.Handled()
	k.FrameStart()
	k.FrameEnd()

	// Five seconds later, a key that moves the player: its frame is
	// written 2 ms after it was read.
	*now = 5_000_000_000
	k.Read()
	k.Key()
	k.Handled()
	k.FrameStart()
	*now += 2_000_000
	k.Frame()
	k.FrameEnd()

	if want := []float64{0.002}; !reflect.DeepEqual(*seen, want) {
		t.Errorf("observed %v s, want %v: the silent key waited for the next key's frame", *seen, want)
	}
}

func TestAKeyNotYetHandledWhenAFrameBeginsWaitsForTheFrameAfter(t *testing.T) {
	k, now, seen := fakeClock()
	*now = 1_000
	k.Read()
	k.Key()
	k.FrameStart() // a frame of what came before the key
	k.FrameEnd()
	k.Handled()
	*now += 30_000_000
	k.FrameStart()
	k.Frame()
	k.FrameEnd()
	if want := []float64{0.03}; !reflect.DeepEqual(*seen, want) {
		t.Errorf("observed %v s, want %v", *seen, want)
	}
}

func TestASecondKeyReadWithAnAnsweredOneIsNotTakenForIt(t *testing.T) {
	k, now, seen := fakeClock()
	*now = 1_000
	k.Read() // both keys came in this read
	k.Key()
	k.Handled()
	k.FrameStart()
	k.Frame()
	k.FrameEnd()
	k.Key()        // the second key: given to the program,
	k.FrameStart() // a frame begins before the program has handled it
	k.FrameEnd()
	k.Handled()
	*now += 10_000_000
	k.FrameStart()
	k.Frame()
	k.FrameEnd()
	if len(*seen) != 2 {
		t.Errorf("observed %v, want both keys", *seen)
	}
}

func TestANilKeyClockMeasuresNothing(t *testing.T) {
	var k *KeyClock
	k.Read()
	k.Key()
	k.Handled()
	k.FrameStart()
	k.Frame()
	k.FrameEnd()
}
