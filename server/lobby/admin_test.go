package lobby

import (
	"slices"
	"sync"
	"testing"
	"time"
)

// announcer records what a slot's holder is told, broadcasts included.
type announcer struct {
	events
	mu   sync.Mutex
	said []string
}

func (a *announcer) Announce(text string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.said = append(a.said, text)
}

func (a *announcer) heard() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.said)
}

func TestKickTakesAwayThePlayerListedUnderTheNameWhateverItsCase(t *testing.T) {
	m := NewMemory(nil)
	ann, other := newEvents(), newEvents()
	s, _ := m.Claim(Holder{Key: "SHA256:ann", Name: "Ann", Notifier: ann})
	o, _ := m.Claim(Holder{Key: "SHA256:bob", Name: "bob", Notifier: other})
	if _, ok := m.Kick("nobody"); ok {
		t.Error("kicking a name nobody plays under found a game")
	}
	released, ok := m.Kick("ANN")
	if !ok {
		t.Fatal("kick ANN: no game found for Ann")
	}
	if e := ann.next(); e != Kicked {
		t.Errorf("Ann was told %v, want kicked", e)
	}
	select {
	case <-s.Lost():
	default:
		t.Error("Ann's slot is not lost")
	}
	select {
	case <-released:
		t.Fatal("released before Ann's session saved and let go")
	default:
	}
	s.Release()
	recv(t, "the kick to be over once the session let go", released)
	select {
	case <-o.Lost():
		t.Error("Bob's slot was taken away too")
	case e := <-other:
		t.Errorf("Bob was told %v", e)
	default:
	}
}

func TestKickKeyTakesAwayTheKeysPlayerAndNotItsSpectator(t *testing.T) {
	m := NewMemory(nil)
	ann, spectator, other := newEvents(), newEvents(), newEvents()
	s, _ := m.Claim(Holder{Key: "SHA256:ann", Name: "Ann", Notifier: ann})
	sp, _ := m.Spectate(Holder{Key: "SHA256:ann", Notifier: spectator})
	o, _ := m.Claim(Holder{Key: "SHA256:bob", Notifier: other}) // no name yet
	if _, ok := m.KickKey("SHA256:nobody"); ok {
		t.Error("kicking a key with no game found one")
	}
	released, ok := m.KickKey("SHA256:ann")
	if !ok {
		t.Fatal("kick by Ann's key: no game found")
	}
	if e := ann.next(); e != Kicked {
		t.Errorf("Ann was told %v, want kicked", e)
	}
	s.Release()
	recv(t, "the kick to be over once the session let go", released)
	for name, sl := range map[string]Slot{"Ann's spectator": sp, "Bob": o} {
		select {
		case <-sl.Lost():
			t.Errorf("%s was taken away too", name)
		default:
		}
	}
	if _, ok := m.KickKey("SHA256:bob"); !ok {
		t.Error("a player with no name yet cannot be kicked by key")
	}
}

func TestBanTakesAwayEverySlotOfTheKeyAndNoOther(t *testing.T) {
	m := NewMemory(nil)
	player, spectator, other := newEvents(), newEvents(), newEvents()
	m.Claim(Holder{Key: "SHA256:bad", Name: "bad", Notifier: player})
	m.Spectate(Holder{Key: "SHA256:bad", Notifier: spectator})
	o, _ := m.Claim(Holder{Key: "SHA256:good", Name: "good", Notifier: other})
	if n := m.Ban(func(fp string) bool { return fp == "SHA256:bad" }); n != 2 {
		t.Errorf("ban took %d slots away, want the player and the spectator", n)
	}
	if a, b := player.next(), spectator.next(); a != Banned || b != Banned {
		t.Errorf("the banned key's sessions were told %v and %v", a, b)
	}
	if n := m.Ban(func(fp string) bool { return fp == "SHA256:bad" }); n != 0 {
		t.Errorf("a second ban took %d slots already taken away", n)
	}
	select {
	case <-o.Lost():
		t.Error("another key's slot was taken away")
	default:
	}
}

func TestBroadcastTellsEverySessionThatShowsIt(t *testing.T) {
	m := NewMemory(nil)
	a, b := &announcer{events: newEvents()}, &announcer{events: newEvents()}
	m.Claim(Holder{Key: "SHA256:a", Name: "a", Notifier: a})
	m.Spectate(Holder{Key: "SHA256:a", Notifier: b})
	m.Claim(Holder{Key: "SHA256:c", Notifier: newEvents()}) // shows no banner
	gone, _ := m.Claim(Holder{Key: "SHA256:d", Notifier: &announcer{events: newEvents()}})
	gone.Release()
	if n := m.Broadcast("restart at noon"); n != 2 {
		t.Errorf("broadcast told %d sessions, want 2", n)
	}
	for _, x := range []*announcer{a, b} {
		if got := x.heard(); !slices.Equal(got, []string{"restart at noon"}) {
			t.Errorf("a session heard %q", got)
		}
	}
}

// A chat line said while watching counts as the key's last input: `who`
// shows the watcher active, not idle (a community tester).
func TestTouchKeyIsTheKeysLastInput(t *testing.T) {
	now := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	m := NewMemory(func() time.Time { return now })
	if _, err := m.Claim(Holder{Key: "SHA256:bob", Name: "bob", Notifier: newEvents()}); err != nil {
		t.Fatal(err)
	}
	now = now.Add(55 * time.Second)
	m.TouchKey("SHA256:bob")
	m.TouchKey("SHA256:nobody") // no slot: nothing
	if g, ok := m.OfKey("SHA256:bob"); !ok || !g.LastInput.Equal(now) {
		t.Errorf("bob's last input %v, want %v", g.LastInput, now)
	}
}

// TestARenamedPlayerIsTold: every session of the renamed key hears its new
// name (a community tester's renamed player was never told).
func TestARenamedPlayerIsTold(t *testing.T) {
	m := NewMemory(nil)
	cat, spec, bob := &announcer{events: newEvents()}, &announcer{events: newEvents()}, &announcer{events: newEvents()}
	s, _ := m.Claim(Holder{Key: "SHA256:cat", Name: "cat", Notifier: cat})
	defer s.Release()
	sp, _ := m.Spectate(Holder{Key: "SHA256:cat", Name: "cat", Notifier: spec})
	defer sp.Release()
	b, _ := m.Claim(Holder{Key: "SHA256:bob", Name: "bob", Notifier: bob})
	defer b.Release()
	if !m.RenameKey("SHA256:cat", "kat") {
		t.Fatal("RenameKey found no player slot for the key")
	}
	want := []string{RenamedWords("kat")}
	if !slices.Equal(cat.heard(), want) || !slices.Equal(spec.heard(), want) {
		t.Errorf("the renamed key's sessions heard %q and %q, want %q", cat.heard(), spec.heard(), want)
	}
	if len(bob.heard()) != 0 {
		t.Errorf("another key heard %q", bob.heard())
	}
}
