package lobby

// This file: the keepalive and idle sweep over every slot.

import "time"

// keepAliveMisses is how many keepalives in a row a connection may leave
// unanswered before the sweep closes it.
const keepAliveMisses = 3

// idleCheckEvery is how often the sweep asks every slot whether it is idle,
// for an idle timeout of idle (> 0): as often as idle, but at least once a
// minute and at most once a second, so that a tiny timeout (which
// server.Config.Validate refuses) cannot spin a core.
func idleCheckEvery(idle time.Duration) time.Duration {
	return min(time.Minute, max(time.Second, idle))
}

// Sweep implements Lobby.
func (m *Memory) Sweep(keepAlive, idle time.Duration, stop <-chan struct{}) {
	if keepAlive <= 0 {
		keepAlive = 30 * time.Second
	}
	ka := time.NewTicker(keepAlive)
	defer ka.Stop()
	relist := time.NewTicker(RelistEvery)
	defer relist.Stop()
	var idleC <-chan time.Time
	if idle > 0 {
		t := time.NewTicker(idleCheckEvery(idle))
		defer t.Stop()
		idleC = t.C
	}
	for {
		select {
		case <-stop:
			return
		case <-ka.C:
			m.keepAlive()
		case <-relist.C:
			m.relist()
		case <-idleC:
			m.mu.Lock()
			told := make([]*slot, 0, len(m.slots))
			for _, s := range m.slots {
				told = append(told, s)
			}
			m.mu.Unlock()
			for _, s := range told {
				s.notify(IdleCheck)
			}
		}
	}
}

// RelistEvery is how often Sweep tells the sessions with no game open
// (on the title, watching, in settings) that the live games may have
// changed (Relist), so that a list on screen follows players coming and
// going. A session in a game is never told: it shows no list.
const RelistEvery = 5 * time.Second

// relist sends Relist to every slot with no game open (depth 0).
func (m *Memory) relist() {
	m.mu.Lock()
	told := make([]*slot, 0, len(m.slots))
	for _, s := range m.slots {
		if s.depth <= 0 {
			told = append(told, s)
		}
	}
	m.mu.Unlock()
	for _, s := range told {
		s.notify(Relist)
	}
}

// keepAlive sends every slot's connection a keepalive request, each in its
// own goroutine (a client that does not answer holds up no one), and closes
// the connections that left keepAliveMisses in a row unanswered.
func (m *Memory) keepAlive() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, s := range m.slots {
		if s.conn == nil {
			continue
		}
		if s.missed >= keepAliveMisses {
			go s.conn.Close()
			continue
		}
		s.missed++
		go func(s *slot, c Conn) {
			if _, _, err := c.SendRequest("keepalive@openssh.com", true, nil); err != nil {
				c.Close()
				return
			}
			m.mu.Lock()
			s.missed = 0
			m.mu.Unlock()
		}(s, s.conn)
	}
}
