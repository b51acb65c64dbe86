package lobby

// This file: watching a slot and publishing its frames. A frame is opaque to
// the lobby: an immutable *frame.Frame that every watcher of the slot on
// this node shares, so a watcher costs a pointer a frame, never a copy or a
// decode. Each watcher holds at most one frame, the newest: publishing never
// waits for a watcher. Publish only records the frame; a fan-out goroutine
// of the slot hands it to the watchers, fanOutBatch at a time with a
// fanOutPause between batches, so that what the watchers do with a frame
// (each draws it) is spread out in time rather than all at once, and the
// players' own turns do not queue behind 2,000 watchers' drawing. A game
// of today's daily challenge is watched by no one but its own key
// (HiddenDaily): the one place that rule is kept.

import (
	"time"

	"github.com/grotto-game/grotto/game/frame"
)

// The pace of a slot's fan-out: at most fanOutBatch watchers are handed a
// frame every fanOutPause, 1,000 watchers a second (fewer when the machine
// is busy: the pause then lasts longer). A game's first fanOutBatch
// watchers get each frame at once; one among 2,000 gets the newest within
// about two seconds. A web watcher draws a frame in about 0.2 ms of CPU
// (docs/performance.md, "Watchers"), so the watchers of one game
// take about a fifth of a core at most, however fast its player plays.
const (
	fanOutBatch = 2
	fanOutPause = 2 * time.Millisecond
)

// HiddenDaily reports whether a live game of daily (the daily challenge's
// date, "2006-01-02"; "" for a game of its own) is hidden from watchers at
// now: its UTC day is not over, so anyone may still play that dungeon and
// must not see its map or moves. A daily played on past 00:00
// UTC, started the day before, may be watched, as its replay may be from
// then (server/replays.go, ErrDailyNotOver): nobody can start that day's
// daily any more.
func HiddenDaily(daily string, now time.Time) bool {
	return daily != "" && daily >= now.UTC().Format(time.DateOnly) // "2006-01-02" sorts as the days do
}

// watcher is one subscription to a slot's frames.
type watcher struct {
	ch   chan *frame.Frame // holds at most the newest frame not read yet
	last *frame.Frame      // the last frame handed to ch
	own  bool              // a session of the slot's own key (WatchOwn)
	// at is the slot watched, guarded by m.mu: the one subscribed to,
	// or the session that took its game over since (handWatchers).
	at *slot
}

// Watch implements Lobby.
func (m *Memory) Watch(id uint64) (<-chan *frame.Frame, func(), bool) {
	m.mu.Lock()
	s, ok := m.slots[id]
	if !ok || HiddenDaily(s.daily, m.now()) {
		m.mu.Unlock()
		return nil, nil, false
	}
	return m.subscribe(s, false)
}

// WatchOwn implements Lobby.
func (m *Memory) WatchOwn(fp string) (<-chan *frame.Frame, func(), bool) {
	m.mu.Lock()
	s := m.players[fp]
	if s == nil {
		m.mu.Unlock()
		return nil, nil, false
	}
	return m.subscribe(s, true)
}

// subscribe adds a watcher to s, of s's own key when own; m.mu is held and
// subscribe unlocks it. A watcher not own is refused while the frame
// published last is of today's daily (s.frameDaily), checked again under
// watchMu: the game may have become the daily since the caller looked.
func (m *Memory) subscribe(s *slot, own bool) (<-chan *frame.Frame, func(), bool) {
	m.next++
	wid := m.next
	s.watching++
	tell := s.noteWatchers()
	m.mu.Unlock()
	ch := make(chan *frame.Frame, 1)
	s.watchMu.Lock()
	if !own && HiddenDaily(s.frameDaily, m.now()) {
		s.watchMu.Unlock()
		m.mu.Lock()
		s.watching--
		m.mu.Unlock()
		if tell {
			s.notify(WatchersChanged)
		}
		return nil, nil, false
	}
	w := &watcher{ch: ch, last: s.frame, own: own, at: s}
	if s.watchersClosed { // released since: the channel says the game ended
		close(ch)
	} else {
		if s.frame != nil {
			ch <- s.frame
		}
		s.watchers[wid] = w
	}
	s.watchMu.Unlock()
	if tell {
		s.notify(WatchersChanged)
	}
	return ch, func() { m.unsubscribe(wid, w) }, true
}

// unsubscribe ends watcher w (id wid) on the slot it watches now, which a
// take-over may have changed since it subscribed; it does nothing when
// w's channel was closed already (its game ended or became today's daily).
func (m *Memory) unsubscribe(wid uint64, w *watcher) {
	for {
		m.mu.Lock()
		s := w.at
		m.mu.Unlock()
		s.watchMu.Lock()
		ok := s.watchers[wid] == w
		if ok {
			delete(s.watchers, wid)
			close(w.ch)
		}
		s.watchMu.Unlock()
		if ok {
			m.mu.Lock()
			s.watching--
			tell := s.noteWatchers()
			m.mu.Unlock()
			if tell {
				s.notify(WatchersChanged)
			}
			return
		}
		m.mu.Lock()
		moved := w.at != s
		m.mu.Unlock()
		if !moved {
			return
		}
	}
}

// noteWatchers reports whether s's holder is to be told WatchersChanged:
// not when it was told already and has not asked Watchers since (a join
// of 2,000 watchers costs the holder one notice, not 2,000 re-published
// frames); m.mu is held.
func (s *slot) noteWatchers() bool {
	if s.watchersNoted {
		return false
	}
	s.watchersNoted = true
	return true
}

// notify tells s's holder e, if it has a notifier; m.mu must not be held.
func (s *slot) notify(e Event) {
	if s.n != nil {
		s.n.Notify(e)
	}
}

// Publish implements Slot. A frame of today's daily (HiddenDaily) goes
// to the key's own watchers only (WatchOwn): any other watcher's channel
// closes instead, before it could get one.
func (s *slot) Publish(a Activity, depth, turn int, daily string, f *frame.Frame) {
	s.m.mu.Lock()
	if s.released {
		s.m.mu.Unlock()
		return
	}
	s.activity, s.depth, s.turn, s.daily = a, depth, turn, daily
	hidden := HiddenDaily(daily, s.m.now())
	s.m.mu.Unlock()
	s.watchMu.Lock()
	if s.watchersClosed {
		s.watchMu.Unlock()
		return
	}
	s.frameDaily = daily
	left := 0
	if hidden {
		for wid, w := range s.watchers {
			if !w.own {
				delete(s.watchers, wid) // its stop then finds nothing to close
				close(w.ch)
				left++
			}
		}
	}
	s.frame = f // nil: a new watcher waits for the next frame
	if f != nil && !s.fanning && len(s.watchers) > 0 {
		s.fanning = true
		go s.fanOut()
	}
	s.watchMu.Unlock()
	if left > 0 {
		s.m.mu.Lock()
		s.watching -= left
		tell := s.noteWatchers()
		s.m.mu.Unlock()
		if tell {
			s.notify(WatchersChanged)
		}
	}
}

// fanOut hands the slot's newest frame to every watcher that does not hold
// it yet, at the pace of fanOutBatch and fanOutPause, and again while a
// newer frame was published meanwhile; it ends once every watcher has the
// newest (or the slot was released). One runs per slot at most (fanning).
func (s *slot) fanOut() {
	var ids []uint64
	for {
		s.watchMu.Lock()
		if s.watchersClosed || s.frame == nil {
			s.fanning = false
			s.watchMu.Unlock()
			return
		}
		ids = ids[:0]
		for id, w := range s.watchers {
			if w.last != s.frame {
				ids = append(ids, id)
			}
		}
		if len(ids) == 0 {
			s.fanning = false
			s.watchMu.Unlock()
			return
		}
		s.watchMu.Unlock()
		for i := 0; i < len(ids); i += fanOutBatch {
			if i > 0 {
				time.Sleep(fanOutPause)
			}
			s.watchMu.Lock()
			f := s.frame // always the newest
			for _, id := range ids[i:min(i+fanOutBatch, len(ids))] {
				if w, ok := s.watchers[id]; ok && f != nil && w.last != f {
					w.last = f
					if offer(w.ch, f) {
						s.m.dropped.Add(1)
					}
				}
			}
			s.watchMu.Unlock()
		}
	}
}

// offer puts f in a one-slot channel, dropping what it held, and reports
// whether it dropped a frame the watcher had not read. Only the fan-out
// sends on a watcher's channel, under the slot's watchMu, so the second
// select always finds the slot free.
func offer(ch chan *frame.Frame, f *frame.Frame) (dropped bool) {
	select {
	case <-ch:
		dropped = true
	default:
	}
	select {
	case ch <- f:
	default:
	}
	return dropped
}

// handWatchers gives the watchers of s, a player slot being released, to
// t, the session of the same key taking its game over (takeover.go), so
// that they see its frames from its first publish on instead of the game
// ending; it reports whether t's holder is to be told WatchersChanged.
// m.mu is held; s's watchMu is taken before t's (never the other way).
func (s *slot) handWatchers(t *slot) (tell bool) {
	s.watchMu.Lock()
	t.watchMu.Lock()
	n := 0
	for id, w := range s.watchers {
		w.at = t
		t.watchers[id] = w
		n++
	}
	clear(s.watchers)
	s.watchersClosed = true
	s.frame = nil
	t.watchMu.Unlock()
	s.watchMu.Unlock()
	t.watching += n
	return n > 0 && t.noteWatchers()
}

// closeWatchers closes every watcher's channel of a released slot: its
// watchers see the game end.
func (s *slot) closeWatchers() {
	s.watchMu.Lock()
	defer s.watchMu.Unlock()
	s.watchersClosed = true
	for _, w := range s.watchers {
		close(w.ch)
	}
	clear(s.watchers) // a watcher's stop after this finds nothing to close
	s.frame = nil
}

// DroppedFrames returns how many frames were replaced before their watcher
// read them, since the lobby was made: a watcher slower than its player
// sees only the newest frame (Slot.Publish).
func (m *Memory) DroppedFrames() uint64 { return m.dropped.Load() }

// Watchers implements Slot. It also re-arms the WatchersChanged notice
// (Lobby.Watch): the next change after this call is told again.
func (s *slot) Watchers() int {
	s.m.mu.Lock()
	defer s.m.mu.Unlock()
	s.watchersNoted = false
	return s.watching
}
