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
// per 1/FPS).
//
// A key that changes nothing on screen (a wall bumped twice, a key bound
// to nothing) is not measured: once the program has handled it (Handled)
// and a frame drawn after that wrote nothing (FrameStart, FrameEnd: the
// clock is the program's tea.FrameObserver), the key is dropped. Before,
// such a key waited for whatever frame came next, often the one that
// answered the player's next key seconds later (issue 24: 6 of 151 samples
// over 1 s in play that felt instant).
//
// Four goroutines touch it: the session's reader (Read), its decoder (Key,
// Handled), its renderer (FrameStart, FrameEnd) and its output (Frame,
// called by the renderer's writes). Each method is a few atomic
// operations: no lock, no allocation. A nil *KeyClock measures nothing.
type KeyClock struct {
	base time.Time // the clock's zero: times are nanoseconds since, on the monotonic clock
	read atomic.Int64
	// key is the read time of the oldest key no frame has answered yet; 0
	// for none. Each key waiting gets a value of its own (Key), so that
	// handled names one key.
	key     atomic.Int64
	last    int64        // the last value Key stored in key; the decoder's only
	handled atomic.Int64 // the value of key when the program had last handled a key
	drawing int64        // handled when the frame being drawn began; the renderer's only
	hist    prometheus.Observer
	silent  prometheus.Counter // keys dropped for drawing nothing; nil counts nothing
	clock   func() int64       // tests only: the time, as now returns it
}

// NewKeyClock returns a session's clock, observing into m.KeyFrame and
// counting the keys it drops into m.SilentKeys.
func (m *Metrics) NewKeyClock() *KeyClock {
	return &KeyClock{base: time.Now(), hist: m.KeyFrame, silent: m.SilentKeys}
}

// now returns the time since k.base in nanoseconds, never 0.
func (k *KeyClock) now() int64 {
	if k.clock != nil {
		return k.clock()
	}
	return int64(time.Since(k.base)) + 1
}

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
	if k == nil || k.key.Load() != 0 {
		return
	}
	// One value per key: a key read in the same chunk as one already
	// answered (or dropped) is a nanosecond later, so Handled cannot name
	// it before the program has seen it.
	at := max(k.read.Load(), k.last+1)
	if k.key.CompareAndSwap(0, at) {
		k.last = at
	}
}

// Handled records that the program has handled every key given to it so
// far: its view now shows what they did. Call it once the program's event
// loop has finished with them (server/input: a nil message sent after the
// key returns once the loop has taken it, so the key's Update and view are
// done).
func (k *KeyClock) Handled() {
	if k != nil {
		k.handled.Store(k.key.Load())
	}
}

// FrameStart records that the program's renderer is about to draw a frame
// from its latest view (tea.FrameObserver).
func (k *KeyClock) FrameStart() {
	if k != nil {
		k.drawing = k.handled.Load()
	}
}

// FrameEnd records that the frame begun at FrameStart is drawn, written
// or not (tea.FrameObserver). A key handled before the frame began and
// still waiting drew nothing: no frame will answer it, so it is dropped.
func (k *KeyClock) FrameEnd() {
	if k == nil || k.drawing == 0 {
		return
	}
	if k.key.CompareAndSwap(k.drawing, 0) && k.silent != nil {
		k.silent.Inc()
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
