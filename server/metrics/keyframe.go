package metrics

// This file: key→frame latency, measured on every key and every frame of
// every session, so it takes no lock and allocates nothing.

import (
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// KeyClock measures one session's key→frame latency into a histogram
// (Metrics.KeyFrame): from the moment a key's bytes were read from the SSH
// channel to the next write of output to the channel, which is the frame
// that answers it (Bubble Tea writes each frame in one write, at most once
// per 1/FPS). A key that changes nothing on screen is measured to whatever
// frame comes next.
//
// Three goroutines touch it: the session's reader (Read), its decoder
// (Key) and its renderer (Frame). Each method is a few atomic operations:
// no lock, no allocation. A nil *KeyClock measures nothing.
type KeyClock struct {
	base time.Time // the clock's zero: times are nanoseconds since, on the monotonic clock
	read atomic.Int64
	key  atomic.Int64 // read time of the oldest key no frame has answered yet; 0 for none
	hist prometheus.Observer
}

// NewKeyClock returns a session's clock, observing into m.KeyFrame.
func (m *Metrics) NewKeyClock() *KeyClock {
	return &KeyClock{base: time.Now(), hist: m.KeyFrame}
}

// now returns the time since k.base in nanoseconds, never 0.
func (k *KeyClock) now() int64 { return int64(time.Since(k.base)) + 1 }

// Read records that bytes were just read from the channel.
func (k *KeyClock) Read() {
	if k != nil {
		k.read.Store(k.now())
	}
}

// Key records that a key decoded from the bytes last read goes to the
// program. Only the oldest unanswered key counts: keys typed before a frame
// are answered by that frame, and the one that waited longest is the one
// the player felt.
func (k *KeyClock) Key() {
	if k != nil && k.key.Load() == 0 {
		k.key.CompareAndSwap(0, k.read.Load())
	}
}

// Frame records that output was just written to the channel: it observes
// the wait of the key it answers, if one is waiting.
func (k *KeyClock) Frame() {
	if k == nil || k.key.Load() == 0 {
		return
	}
	if at := k.key.Swap(0); at != 0 {
		k.hist.Observe(float64(k.now()-at) / float64(time.Second))
	}
}
