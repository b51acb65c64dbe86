package lobby

// This file: the take-over protocol, the one way a key's game moves from one
// of its sessions to another.

import "context"

// TakeOver implements Slot: it makes spectator slot s the player of its key,
// taking the game from the session that plays it. The ordering rule, which
// every Lobby keeps:
//
//  1. The key is reserved for s: until TakeOver returns, Claim and any other
//     TakeOver of the key fail (ErrAlreadyPlaying, ErrTakingOver).
//  2. The old holder is told: its Lost channel closes and its notifier gets
//     TakenOver.
//  3. The old holder saves its game and releases its slot.
//  4. Only then is s promoted to player, listed under name() (the stored
//     profile's name, read now that the old holder has saved; "" when the
//     key has claimed none).
//
// So there are never two players of one key at once, and the new player
// reads a save the old one has finished writing. The game's watchers
// follow it: at step 3 the old slot hands them to s (Release,
// handWatchers) instead of closing their channels, and they see s's frames
// from its first publish on. With no player for the key
// (it left meanwhile) step 4 happens at once. If the old holder has not
// released when ctx ends, TakeOver returns ctx's error and s stays a
// spectator (the old holder was told and still leaves; the key can then be
// taken over again). TakeOver returns ErrClosing once Shutdown has begun and
// ErrReleased for a released s, and nil at once for a slot that already plays.
func (s *slot) TakeOver(ctx context.Context, name func() string) error {
	m := s.m
	m.mu.Lock()
	switch {
	case s.released:
		m.mu.Unlock()
		return ErrReleased
	case m.closing:
		m.mu.Unlock()
		return ErrClosing
	case s.player:
		m.mu.Unlock()
		return nil
	case m.taking[s.key] != nil:
		m.mu.Unlock()
		return ErrTakingOver
	}
	m.taking[s.key] = s // 1. reserved
	defer func() {
		m.mu.Lock()
		delete(m.taking, s.key)
		m.mu.Unlock()
	}()
	old := m.players[s.key]
	var tell Notifier
	if old != nil {
		tell = old.loseLocked() // 2. told: Lost closes...
	}
	m.mu.Unlock()

	if old != nil {
		if tell != nil {
			tell.Notify(TakenOver) // ...and the notifier hears it
		}
		select {
		case <-old.done: // 3. saved and released
		case <-ctx.Done():
			return ctx.Err()
		}
	}

	listed := name() // outside the lock: it reads the store
	m.mu.Lock()      // 4. promoted
	defer m.mu.Unlock()
	switch {
	case s.released:
		return ErrReleased
	case m.closing:
		return ErrClosing
	case m.players[s.key] != nil: // unreachable while reserved; kept as the rule's guard
		return ErrAlreadyPlaying
	}
	s.player, s.name = true, listed
	m.players[s.key] = s
	m.chatFor(s.key)
	return nil
}
