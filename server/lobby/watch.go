package lobby

// This file: watching a slot and publishing its frames. A frame is opaque to
// the lobby (the server publishes a game's save blob). Each watcher holds at
// most one frame, the newest: publishing never waits for a watcher.

// Watch implements Lobby.
func (m *Memory) Watch(id uint64) (<-chan []byte, func(), bool) {
	m.mu.Lock()
	s, ok := m.slots[id]
	if !ok {
		m.mu.Unlock()
		return nil, nil, false
	}
	m.next++
	wid := m.next
	ch := make(chan []byte, 1)
	if s.frame != nil {
		ch <- s.frame
	}
	s.watchers[wid] = ch
	m.mu.Unlock()
	s.notify(WatchersChanged)
	stop := func() {
		m.mu.Lock()
		w, ok := s.watchers[wid]
		if ok {
			delete(s.watchers, wid)
			close(w)
		}
		m.mu.Unlock()
		if ok {
			s.notify(WatchersChanged)
		}
	}
	return ch, stop, true
}

// notify tells s's holder e, if it has a notifier; m.mu must not be held.
func (s *slot) notify(e Event) {
	if s.n != nil {
		s.n.Notify(e)
	}
}

// Publish implements Slot.
func (s *slot) Publish(depth, turn int, daily string, frame []byte) {
	s.m.mu.Lock()
	defer s.m.mu.Unlock()
	if s.released {
		return
	}
	s.depth, s.turn, s.daily, s.frame = depth, turn, daily, frame
	for _, ch := range s.watchers {
		if offer(ch, frame) {
			s.m.dropped++
		}
	}
}

// offer puts frame in a one-slot channel, dropping what it held, and
// reports whether it dropped a frame the watcher had not read. Only
// publishers send on a watcher's channel, and they hold the lobby's lock, so
// the second select always finds the slot free.
func offer(ch chan []byte, frame []byte) (dropped bool) {
	select {
	case <-ch:
		dropped = true
	default:
	}
	select {
	case ch <- frame:
	default:
	}
	return dropped
}

// DroppedFrames returns how many frames were replaced before their watcher
// read them, since the lobby was made: a watcher slower than its player
// sees only the newest frame (Slot.Publish).
func (m *Memory) DroppedFrames() uint64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.dropped
}

// Watchers implements Slot.
func (s *slot) Watchers() int {
	s.m.mu.Lock()
	defer s.m.mu.Unlock()
	return len(s.watchers)
}
