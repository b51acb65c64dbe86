package lobby

// This file: Memory, the lobby of one process (claim, release, listing,
// shutdown); watching is in watch.go, take-over in takeover.go, the sweep in
// sweep.go.

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/grotto-game/grotto/game/frame"
)

// Memory is the Lobby of a single server process: its slots live in memory
// and end with it. The zero value is not usable; call NewMemory.
type Memory struct {
	now func() time.Time

	mu      sync.Mutex
	next    uint64           // the last slot or watcher id handed out
	slots   map[uint64]*slot // every slot not yet released
	players map[string]*slot // key fingerprint → its player slot
	taking  map[string]*slot // key fingerprint → the spectator taking it over
	chats   map[string]*Chat // key fingerprint → the chat of its game (chat.go), from its claim to its player's last release
	closing bool
	dropped atomic.Uint64 // frames replaced before their watcher read them (DroppedFrames)
}

var _ Lobby = (*Memory)(nil)

// NewMemory returns an empty lobby. now is its clock for the LastInput of a
// new claim and for the day of a daily (HiddenDaily); nil means time.Now.
func NewMemory(now func() time.Time) *Memory {
	if now == nil {
		now = time.Now
	}
	return &Memory{now: now, slots: map[uint64]*slot{}, players: map[string]*slot{}, taking: map[string]*slot{}, chats: map[string]*Chat{}}
}

// slot is one session's slot in a Memory. Every field but the constants (m,
// id, key, n, lost, done) and those under watchMu is guarded by m.mu.
type slot struct {
	m    *Memory
	id   uint64
	key  string
	n    Notifier
	lost chan struct{} // closed when the lobby takes the slot away
	done chan struct{} // closed by Release

	player    bool
	name      string
	conn      Conn
	missed    int      // keepalives unanswered in a row (sweep.go)
	activity  Activity // what the session does, as listed (Publish)
	depth     int
	turn      int
	daily     string // the daily's date, "" for a game of its own
	lastInput time.Time
	watching  int // len(watchers) as listed and told (Watchers)
	isLost    bool
	released  bool
	// watchersNoted: the holder was told WatchersChanged and has not
	// called Watchers since (watch.go).
	watchersNoted bool

	// Guarded by watchMu (taken after m.mu when both are held): the
	// frames go out under it (watch.go), so that handing one to 2,000
	// watchers holds up no other slot.
	watchMu        sync.Mutex
	frame          *frame.Frame        // the latest published frame, for a new watcher
	watchers       map[uint64]*watcher // each holds at most the newest frame
	watchersClosed bool                // the slot was released: its watchers' channels are closed
	fanning        bool                // a fan-out goroutine runs (watch.go)
	frameDaily     string              // the daily of the frame published last ("" for none), for HiddenDaily
}

// Claim implements Lobby.
func (m *Memory) Claim(h Holder) (Slot, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closing {
		return nil, ErrClosing
	}
	if m.players[h.Key] != nil || m.taking[h.Key] != nil {
		return nil, ErrAlreadyPlaying
	}
	s := m.newSlot(h)
	s.player, s.name = true, h.Name
	m.players[h.Key] = s
	m.chatFor(h.Key)
	return s, nil
}

// Spectate implements Lobby.
func (m *Memory) Spectate(h Holder) (Slot, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closing {
		return nil, ErrClosing
	}
	return m.newSlot(h), nil
}

// newSlot registers a spectator slot for h; m.mu is held.
func (m *Memory) newSlot(h Holder) *slot {
	m.next++
	s := &slot{m: m, id: m.next, key: h.Key, n: h.Notifier, conn: h.Conn, lastInput: m.now(),
		watchers: map[uint64]*watcher{}, lost: make(chan struct{}), done: make(chan struct{})}
	m.slots[s.id] = s
	return s
}

// Games implements Lobby.
func (m *Memory) Games() []Game {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Game, 0, len(m.players))
	for _, s := range m.players {
		out = append(out, s.listed())
	}
	slices.SortFunc(out, func(a, b Game) int {
		return cmp.Or(cmp.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)), cmp.Compare(a.ID, b.ID))
	})
	return out
}

// OfKey implements Lobby.
func (m *Memory) OfKey(fp string) (Game, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s := m.players[fp]; s != nil {
		return s.listed(), true
	}
	return Game{}, false
}

// listed is how s shows in the list of live games; m.mu is held.
func (s *slot) listed() Game {
	return Game{ID: s.id, Key: s.key, Name: s.name, Activity: s.activity, Depth: s.depth, Turn: s.turn, Daily: s.daily, LastInput: s.lastInput, Watchers: s.watching}
}

// Shutdown implements Lobby.
func (m *Memory) Shutdown() {
	m.mu.Lock()
	m.closing = true
	var told []Notifier
	for _, s := range m.slots {
		if n := s.loseLocked(); n != nil {
			told = append(told, n)
		}
	}
	m.mu.Unlock()
	for _, n := range told {
		n.Notify(ShutDown)
	}
}

// loseLocked takes s away: Lost closes. It returns the notifier to tell, or
// nil when s was already lost or has none; m.mu is held.
func (s *slot) loseLocked() Notifier {
	if s.isLost || s.released {
		return nil
	}
	s.isLost = true
	close(s.lost)
	return s.n
}

// Wait implements Lobby.
func (m *Memory) Wait(ctx context.Context) error {
	t := time.NewTicker(10 * time.Millisecond)
	defer t.Stop()
	for m.Len() > 0 {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
	return nil
}

// Len implements Lobby.
func (m *Memory) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.slots)
}

// ID implements Slot.
func (s *slot) ID() uint64 { return s.id }

// Player implements Slot.
func (s *slot) Player() bool {
	s.m.mu.Lock()
	defer s.m.mu.Unlock()
	return s.player
}

// Renew implements Slot.
func (s *slot) Renew(now time.Time) error {
	s.m.mu.Lock()
	defer s.m.mu.Unlock()
	switch {
	case s.released:
		return ErrReleased
	case s.isLost:
		s.lastInput = now
		return ErrLost
	}
	s.lastInput = now
	return nil
}

// Rename implements Slot.
func (s *slot) Rename(name string) {
	s.m.mu.Lock()
	defer s.m.mu.Unlock()
	if !s.released {
		s.name = name
	}
}

// Lost implements Slot.
func (s *slot) Lost() <-chan struct{} { return s.lost }

// Release implements Slot. The watchers of a player slot whose key is
// being taken over follow the game to the taker (handWatchers); any other
// slot's watchers see their channels close.
func (s *slot) Release() {
	m := s.m
	m.mu.Lock()
	if s.released {
		m.mu.Unlock()
		return
	}
	s.released = true
	delete(m.slots, s.id)
	var taker *slot
	if m.players[s.key] == s {
		delete(m.players, s.key)
		if t := m.taking[s.key]; t != nil && !t.released {
			taker = t
		}
	}
	tell := false
	if taker != nil {
		tell = s.handWatchers(taker) // the chat stays the key's too
	} else {
		s.closeWatchers()
		if c := m.chats[s.key]; c != nil && s.player {
			c.Close()
			delete(m.chats, s.key)
		}
	}
	close(s.done)
	m.mu.Unlock()
	if tell {
		taker.notify(WatchersChanged)
	}
}
