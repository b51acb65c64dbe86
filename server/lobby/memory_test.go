package lobby

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/grotto-game/grotto/game/frame"
)

// events records what a slot's holder is told.
type events chan Event

func newEvents() events { return make(events, 64) }

// Notify implements Notifier; it never blocks (past 64 unread events it
// drops them, as no test here tells that many).
func (e events) Notify(ev Event) {
	select {
	case e <- ev:
	default:
	}
}

// next returns the next event told, or 0, which is no event, if none
// comes within waitLong: the caller's check of the event then fails.
func (e events) next() Event {
	select {
	case ev := <-e:
		return ev
	case <-time.After(waitLong):
		return 0
	}
}

func TestOneKeyHasOnePlayerSlotUntilItIsReleased(t *testing.T) {
	m := NewMemory(nil)
	s, err := m.Claim(Holder{Key: "SHA256:a", Name: "p"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Claim(Holder{Key: "SHA256:a", Name: "p"}); !errors.Is(err, ErrAlreadyPlaying) {
		t.Errorf("second session of the same key: err = %v", err)
	}
	if _, err := m.Claim(Holder{Key: "SHA256:b", Name: "q"}); err != nil {
		t.Errorf("another key was refused: %v", err)
	}
	s.Release()
	s.Release() // a second release changes nothing
	if _, err := m.Claim(Holder{Key: "SHA256:a", Name: "p"}); err != nil {
		t.Errorf("the key could not play again after leaving: %v", err)
	}
}

func TestConcurrentClaimsOfOneKeyAdmitExactlyOne(t *testing.T) {
	m := NewMemory(nil)
	var wg sync.WaitGroup
	var mu sync.Mutex
	admitted := 0
	for range 50 {
		wg.Go(func() {
			if _, err := m.Claim(Holder{Key: "SHA256:same"}); err == nil {
				mu.Lock()
				admitted++
				mu.Unlock()
			}
		})
	}
	within(t, "the sessions to finish", wg.Wait)
	if admitted != 1 {
		t.Errorf("%d sessions admitted for one key, want 1", admitted)
	}
}

func TestASpectatorIsNeitherListedNorItsKeysGame(t *testing.T) {
	m := NewMemory(nil)
	p, _ := m.Claim(Holder{Key: "SHA256:a", Name: "alice"})
	sp, err := m.Spectate(Holder{Key: "SHA256:a", Name: "ignored"})
	if err != nil {
		t.Fatal(err)
	}
	if sp.Player() || !p.Player() {
		t.Errorf("player %v, spectator %v", p.Player(), sp.Player())
	}
	if gs := m.Games(); len(gs) != 1 || gs[0].ID != p.ID() || gs[0].Name != "alice" {
		t.Errorf("games = %+v, want only alice's", gs)
	}
	if g, ok := m.OfKey("SHA256:a"); !ok || g.ID != p.ID() {
		t.Errorf("OfKey = %+v, %v; want the player's slot", g, ok)
	}
	sp.Release()
	if _, ok := m.OfKey("SHA256:a"); !ok {
		t.Error("a spectator leaving ended its key's game")
	}
	if m.Len() != 1 {
		t.Errorf("Len = %d, want 1", m.Len())
	}
}

func TestAGameIsListedUnderTheNameGivenAtClaimUntilRenamed(t *testing.T) {
	m := NewMemory(nil)
	s, _ := m.Claim(Holder{Key: "SHA256:a"}) // a key that has claimed no name
	m.Claim(Holder{Key: "SHA256:b", Name: "Bob"})
	if gs := m.Games(); gs[0].Name != "" || gs[1].Name != "Bob" {
		t.Errorf("games = %+v, want the unnamed one first, then Bob", gs)
	}
	s.Rename("alice") // the store accepted the name
	if gs := m.Games(); gs[0].Name != "alice" || gs[1].Name != "Bob" {
		t.Errorf("games = %+v, want alice then Bob (case ignored)", gs)
	}
}

func TestShutdownRefusesClaimsAndWaitWaitsForTheLastSlot(t *testing.T) {
	m := NewMemory(nil)
	s, _ := m.Claim(Holder{Key: "SHA256:a"})
	m.Shutdown()
	if _, err := m.Claim(Holder{Key: "SHA256:b"}); !errors.Is(err, ErrClosing) {
		t.Errorf("claim: err = %v, want ErrClosing", err)
	}
	if _, err := m.Spectate(Holder{Key: "SHA256:b"}); !errors.Is(err, ErrClosing) {
		t.Errorf("spectate: err = %v, want ErrClosing", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := m.Wait(ctx); err == nil {
		t.Error("wait returned with a slot still held")
	}
	go s.Release()
	ctx, cancel = context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	if err := m.Wait(ctx); err != nil {
		t.Error(err)
	}
}

func TestShutdownTakesEverySlotAwayAndTellsItsHolder(t *testing.T) {
	m := NewMemory(nil)
	pe, se := newEvents(), newEvents()
	p, _ := m.Claim(Holder{Key: "SHA256:a", Notifier: pe})
	sp, _ := m.Spectate(Holder{Key: "SHA256:a", Notifier: se})
	m.Shutdown()
	for _, s := range []Slot{p, sp} {
		recv(t, "the slot to be lost at shutdown", s.Lost())
		if err := s.Renew(time.Now()); !errors.Is(err, ErrLost) {
			t.Errorf("renew after shutdown: %v, want ErrLost", err)
		}
	}
	if e := pe.next(); e != ShutDown {
		t.Errorf("player told %v", e)
	}
	if e := se.next(); e != ShutDown {
		t.Errorf("spectator told %v", e)
	}
	if err := sp.TakeOver(context.Background(), func() string { return "" }); !errors.Is(err, ErrClosing) {
		t.Errorf("take-over during shutdown: %v, want ErrClosing", err)
	}
	m.Shutdown() // again: no second notice, no panic on a closed Lost
	if len(pe) != 0 {
		t.Errorf("a second shutdown told the player again: %v", <-pe)
	}
}

func TestRenewRecordsTheLastInputAndFailsOnceReleased(t *testing.T) {
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	m := NewMemory(func() time.Time { return start })
	s, _ := m.Claim(Holder{Key: "SHA256:a"})
	if g, _ := m.OfKey("SHA256:a"); !g.LastInput.Equal(start) {
		t.Errorf("last input at claim = %v, want %v", g.LastInput, start)
	}
	later := start.Add(time.Minute)
	if err := s.Renew(later); err != nil {
		t.Fatal(err)
	}
	if g, _ := m.OfKey("SHA256:a"); !g.LastInput.Equal(later) {
		t.Errorf("last input after renew = %v, want %v", g.LastInput, later)
	}
	s.Release()
	if err := s.Renew(later); !errors.Is(err, ErrReleased) {
		t.Errorf("renew after release: %v, want ErrReleased", err)
	}
}

func TestUnderConcurrentPlayersWatchersAndListing(t *testing.T) {
	m := NewMemory(nil)
	var wg sync.WaitGroup
	for p := range 8 {
		wg.Go(func() {
			s, err := m.Claim(Holder{Key: fmt.Sprintf("SHA256:%d", p), Name: fmt.Sprintf("p%d", p), Notifier: NotifierFunc(func(Event) {})})
			if err != nil {
				t.Error(err)
				return
			}
			for range 3 {
				wg.Go(func() {
					frames, stop, ok := m.Watch(s.ID())
					if !ok {
						return
					}
					for range 20 {
						select {
						case <-frames:
						default:
						}
					}
					stop()
				})
			}
			for turn := range 200 {
				s.Renew(time.Now())
				s.Publish(playing, 1, turn, "", frame.New([]byte("frame"), nil))
				m.Games()
				s.Watchers()
			}
			s.Release()
		})
	}
	within(t, "the sessions to finish", wg.Wait)
	if m.Len() != 0 {
		t.Errorf("%d slots left", m.Len())
	}
}
