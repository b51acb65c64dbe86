package lobby

// This file: watching a slot and publishing its frames. A frame is opaque to
// the lobby: an immutable *frame.Frame that every watcher of the slot on
// this node shares, so a watcher costs a pointer a frame, never a copy or a
// decode. Each watcher holds at most one frame, the newest: publishing never
// waits for a watcher, and it hands frames out under the slot's own lock
// (watchMu), never the lobby's, so other sessions never wait for a slot's
// watchers either.

import "github.com/grotto-game/grotto/game/frame"

// Watch implements Lobby.
func (m *Memory) Watch(id uint64) (<-chan *frame.Frame, func(), bool) {
	m.mu.Lock()
	s, ok := m.slots[id]
	if !ok {
		m.mu.Unlock()
		return nil, nil, false
	}
	m.next++
	wid := m.next
	s.watching++
	tell := s.noteWatchers()
	m.mu.Unlock()
	ch := make(chan *frame.Frame, 1)
	s.watchMu.Lock()
	if s.watchersClosed { // released since: the channel says the game ended
		close(ch)
	} else {
		if s.frame != nil {
			ch <- s.frame
		}
		s.watchers[wid] = ch
	}
	s.watchMu.Unlock()
	if tell {
		s.notify(WatchersChanged)
	}
	stop := func() {
		s.watchMu.Lock()
		w, ok := s.watchers[wid]
		if ok {
			delete(s.watchers, wid)
			close(w)
		}
		s.watchMu.Unlock()
		if !ok {
			return
		}
		m.mu.Lock()
		s.watching--
		tell := s.noteWatchers()
		m.mu.Unlock()
		if tell {
			s.notify(WatchersChanged)
		}
	}
	return ch, stop, true
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

// Publish implements Slot.
func (s *slot) Publish(depth, turn int, daily string, f *frame.Frame) {
	s.m.mu.Lock()
	if s.released {
		s.m.mu.Unlock()
		return
	}
	s.depth, s.turn, s.daily = depth, turn, daily
	s.m.mu.Unlock()
	s.watchMu.Lock()
	defer s.watchMu.Unlock()
	if s.watchersClosed {
		return
	}
	s.frame = f
	if f == nil {
		return // nothing for watchers: a new one waits for the next frame
	}
	for _, ch := range s.watchers {
		if offer(ch, f) {
			s.m.dropped.Add(1)
		}
	}
}

// offer puts f in a one-slot channel, dropping what it held, and reports
// whether it dropped a frame the watcher had not read. Only publishers send
// on a watcher's channel, and they hold the slot's watchMu, so the second
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

// closeWatchers closes every watcher's channel of a released slot: its
// watchers see the game end.
func (s *slot) closeWatchers() {
	s.watchMu.Lock()
	defer s.watchMu.Unlock()
	s.watchersClosed = true
	for _, ch := range s.watchers {
		close(ch)
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
