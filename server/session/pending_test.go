package session

import (
	"slices"
	"testing"
	"time"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/store/storetest"
)

// unsavedServer plays the part of the server around the sessions of one
// key: each session's config shares its Unsaved and PendingEnds, and a
// session that ends with its last save failing marks the key unsaved, as
// server.play does.
type unsavedServer struct {
	st      *finishFails // over a flakyStore: st.Store.(*storetest.Flaky).full fails every game write
	flaky   *storetest.Flaky
	unsaved *Unsaved
	pending *PendingEnds
}

func newUnsavedServer(t *testing.T) *unsavedServer {
	flaky := storetest.NewFlaky(storetest.TempBolt(t))
	return &unsavedServer{st: &finishFails{Store: flaky}, flaky: flaky, unsaved: NewUnsaved(), pending: NewPendingEnds()}
}

func (u *unsavedServer) login(seed uint64) *Session {
	return New(Config{Fingerprint: fp, Saves: u.st, Scores: u.st, Profiles: u.st, Quarantine: u.st,
		NewSeed: func() uint64 { return seed }, Now: func() time.Time { return now },
		Pending: u.pending, Unsaved: u.unsaved})
}

// end is the server's save at the end of a session.
func (u *unsavedServer) end(s *Session) {
	if s.Save() != nil {
		u.unsaved.Mark(fp)
	}
}

// down makes every write of a game fail (disk full), or work again.
func (u *unsavedServer) down(d bool) { u.flaky.SetFull(d); u.st.fail, u.st.journal = d, d }

func (u *unsavedServer) marked() bool { return slices.Contains(u.unsaved.Keys(), fp) }

// TestAKeyIsUnsavedUntilTheStoreHoldsItsGameAgain: the set Shutdown reports
// holds a key from the end of a session whose game could not be saved
// until a write of its game succeeds again (a turn, a save, a new game, an
// end recorded) or a later session resumes the store's copy; a session
// whose writes still fail leaves it marked (before, SIGTERM said "some
// games could not be saved" of a game saved since).
func TestAKeyIsUnsavedUntilTheStoreHoldsItsGameAgain(t *testing.T) {
	// playUnsaved starts a game, plays a turn, and ends the session with
	// every write failing since: the key is marked.
	playUnsaved := func(t *testing.T, u *unsavedServer) {
		t.Helper()
		s := u.login(7)
		if err := s.Start(); err != nil {
			t.Fatal(err)
		}
		u.down(true)
		s.Do(game.Wait())
		u.end(s)
		if !u.marked() {
			t.Fatal("a session that ended with its game unsaved did not mark its key")
		}
	}
	for _, tc := range []struct {
		name string
		then func(t *testing.T, u *unsavedServer) // with writes working again
	}{
		{"a later session that resumes the store's copy clears it", func(t *testing.T, u *unsavedServer) {
			s := u.login(7)
			if g, _, err := s.Open(); g == nil || err != nil {
				t.Fatalf("no game to resume: %v", err)
			}
			s.Continue()
		}},
		{"a turn played after the resume clears it", func(t *testing.T, u *unsavedServer) {
			s := u.login(7)
			s.Open()
			s.Continue()
			u.unsaved.Mark(fp) // as if the resume had not
			if _, err := s.Do(game.Wait()); err != nil {
				t.Fatal(err)
			}
		}},
		{"a new game clears it", func(t *testing.T, u *unsavedServer) {
			if err := u.login(8).Start(); err != nil {
				t.Fatal(err)
			}
		}},
		{"the end-of-session save of a later session clears it", func(t *testing.T, u *unsavedServer) {
			s := u.login(7)
			s.Open()
			s.Continue()
			u.unsaved.Mark(fp)
			s.behind = true // a write failed earlier in this session
			u.end(s)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := newUnsavedServer(t)
			playUnsaved(t, u)
			u.down(false)
			tc.then(t, u)
			if u.marked() {
				t.Errorf("the store holds the key's game again, but the key is still unsaved: %v", u.unsaved.Keys())
			}
		})
	}

	t.Run("a later session whose writes still fail leaves it", func(t *testing.T) {
		u := newUnsavedServer(t)
		playUnsaved(t, u)
		s := u.login(7)
		if _, _, err := s.Open(); err != nil {
			t.Fatal(err)
		}
		s.Continue()
		s.Do(game.Wait())
		u.end(s)
		if !u.marked() {
			t.Error("a key whose game is still unsaved left the set")
		}
	})

	t.Run("a death neither recorded nor saved stays until a later session records it", func(t *testing.T) {
		u := newUnsavedServer(t)
		s := u.login(3)
		s.Start()
		for range 20000 {
			c := dive(s.Game())
			if r, _ := clone(t, s.Game()).Apply(c); r.Died || r.Won {
				u.down(true) // the last turn's writes all fail
			}
			if res, _ := s.Do(c); res.Died || res.Won {
				break
			}
		}
		if s.InProgress() {
			t.Fatal("no end in 20000 turns of diving")
		}
		u.end(s)
		if !u.marked() {
			t.Fatal("a death neither recorded nor saved did not mark its key")
		}
		u.login(99).Open() // writes still failing: the end waits in PendingEnds
		if !u.marked() {
			t.Fatal("a session that could not record the end cleared the key")
		}
		u.down(false)
		if _, news, _ := u.login(99).Open(); u.marked() {
			t.Errorf("the end is recorded (%q) but the key is still unsaved", news)
		}
	})
}

// TestUnsavedKeysAreSortedAndANilSetHoldsNothing: Keys lists each key once,
// sorted, and a nil *Unsaved (a session without a server) takes every call.
func TestUnsavedKeysAreSortedAndANilSetHoldsNothing(t *testing.T) {
	u := NewUnsaved()
	for _, k := range []string{"SHA256:b", "SHA256:a", "SHA256:b"} {
		u.Mark(k)
	}
	if got := u.Keys(); !slices.Equal(got, []string{"SHA256:a", "SHA256:b"}) {
		t.Errorf("Keys = %v", got)
	}
	u.Clear("SHA256:a")
	u.Clear("SHA256:c")
	if got := u.Keys(); !slices.Equal(got, []string{"SHA256:b"}) {
		t.Errorf("after clearing a: %v", got)
	}
	var none *Unsaved
	none.Mark("x")
	none.Clear("x")
	if none.Keys() != nil {
		t.Error("a nil set holds keys")
	}
}
