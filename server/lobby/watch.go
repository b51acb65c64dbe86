package lobby

// This file: watching a slot and publishing its frames. A frame is opaque to
// the lobby (the server publishes a game's save blob). Each watcher holds at
// most one frame, the newest: publishing never waits for a watcher. A game
// of today's daily challenge is watched by no one but its own key
// (HiddenDaily): the one place that rule is kept.

import "time"

// HiddenDaily reports whether a live game of daily (the daily challenge's
// date, "2006-01-02"; "" for a game of its own) is hidden from watchers at
// now: its UTC day is not over, so anyone may still play that dungeon and
// must not see its map or moves (issue 20). A daily played on past 00:00
// UTC, started the day before, may be watched, as its replay may be from
// then (server/replays.go, ErrDailyNotOver): nobody can start that day's
// daily any more.
func HiddenDaily(daily string, now time.Time) bool {
	return daily != "" && daily >= now.UTC().Format(time.DateOnly) // "2006-01-02" sorts as the days do
}

// Watch implements Lobby.
func (m *Memory) Watch(id uint64) (<-chan []byte, func(), bool) {
	m.mu.Lock()
	s, ok := m.slots[id]
	if !ok || HiddenDaily(s.daily, m.now()) {
		m.mu.Unlock()
		return nil, nil, false
	}
	return m.subscribe(s, false)
}

// WatchOwn implements Lobby.
func (m *Memory) WatchOwn(fp string) (<-chan []byte, func(), bool) {
	m.mu.Lock()
	s := m.players[fp]
	if s == nil {
		m.mu.Unlock()
		return nil, nil, false
	}
	return m.subscribe(s, true)
}

// subscribe adds a watcher to s, of s's own key when own; m.mu is held and
// subscribe unlocks it.
func (m *Memory) subscribe(s *slot, own bool) (<-chan []byte, func(), bool) {
	m.next++
	wid := m.next
	ch := make(chan []byte, 1)
	if s.frame != nil {
		ch <- s.frame
	}
	s.watchers[wid] = ch
	if own {
		s.own[wid] = true
	}
	m.mu.Unlock()
	s.notify(WatchersChanged)
	stop := func() {
		m.mu.Lock()
		w, ok := s.watchers[wid]
		if ok {
			delete(s.watchers, wid)
			delete(s.own, wid)
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

// Publish implements Slot. A frame of today's daily (HiddenDaily) goes
// to the key's own watchers only (WatchOwn): any other watcher's channel
// closes instead, before it could get one.
func (s *slot) Publish(depth, turn int, daily string, frame []byte) {
	s.m.mu.Lock()
	if s.released {
		s.m.mu.Unlock()
		return
	}
	s.depth, s.turn, s.daily, s.frame = depth, turn, daily, frame
	hidden, left := HiddenDaily(daily, s.m.now()), false
	for wid, ch := range s.watchers {
		if hidden && !s.own[wid] {
			delete(s.watchers, wid) // its stop then finds nothing to close
			close(ch)
			left = true
			continue
		}
		if offer(ch, frame) {
			s.m.dropped++
		}
	}
	s.m.mu.Unlock()
	if left {
		s.notify(WatchersChanged)
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
