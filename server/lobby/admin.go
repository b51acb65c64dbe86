package lobby

// This file: the host's tools on the live games of a Memory: kick a player,
// take a banned key's sessions away, broadcast a banner to every session.

import "strings"

// Kick implements Lobby.
func (m *Memory) Kick(name string) (<-chan struct{}, bool) {
	return m.kick(func() *slot {
		for _, s := range m.players {
			if s.name != "" && strings.EqualFold(s.name, name) {
				return s
			}
		}
		return nil
	})
}

// KickKey implements Lobby.
func (m *Memory) KickKey(fp string) (<-chan struct{}, bool) {
	return m.kick(func() *slot { return m.players[fp] })
}

// kick takes away the player slot find returns (nil for none; it runs
// with m.mu held) as Kick says.
func (m *Memory) kick(find func() *slot) (<-chan struct{}, bool) {
	m.mu.Lock()
	found := find()
	var tell Notifier
	if found != nil {
		tell = found.loseLocked()
	}
	m.mu.Unlock()
	if found == nil {
		return nil, false
	}
	if tell != nil {
		tell.Notify(Kicked)
	}
	return found.done, true
}

// RenameKey lists the player slot of key fp under name from now on (an
// admin's rename), and tells each session of fp that is an Announcer
// (RenamedWords); it reports whether fp has a player slot here.
func (m *Memory) RenameKey(fp, name string) bool {
	m.mu.Lock()
	s := m.players[fp]
	found := s != nil && !s.released
	if found {
		s.name = name
	}
	var told []Announcer
	for _, o := range m.slots {
		if a, ok := o.n.(Announcer); ok && o.key == fp && !o.released {
			told = append(told, a)
		}
	}
	m.mu.Unlock()
	for _, a := range told {
		a.Announce(RenamedWords(name))
	}
	return found
}

// RenamedWords is what a renamed player reads: name is the new name,
// valid (the store checked it), so it is shown as it is.
func RenamedWords(name string) string {
	return "An admin has renamed you: others now see you as " + name + "."
}

// TouchKey implements Lobby.
func (m *Memory) TouchKey(fp string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s := m.players[fp]; s != nil && !s.released {
		s.lastInput = m.now()
	}
}

// Ban implements Lobby.
func (m *Memory) Ban(banned func(fp string) bool) int {
	m.mu.Lock()
	var told []Notifier
	n := 0
	for _, s := range m.slots {
		if s.isLost || !banned(s.key) {
			continue
		}
		n++
		if t := s.loseLocked(); t != nil {
			told = append(told, t)
		}
	}
	m.mu.Unlock()
	for _, t := range told {
		t.Notify(Banned)
	}
	return n
}

// Broadcast implements Lobby.
func (m *Memory) Broadcast(text string) int {
	m.mu.Lock()
	var told []Announcer
	for _, s := range m.slots {
		if a, ok := s.n.(Announcer); ok && !s.released {
			told = append(told, a)
		}
	}
	m.mu.Unlock()
	for _, a := range told {
		a.Announce(text)
	}
	return len(told)
}
