package tui

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// stallStore is a fakeStore whose journal appends hang while stalled, as
// PostgreSQL's do with the journal table locked: the append enters, then
// waits until release, and then writes (or fails with err, when set).
type stallStore struct {
	*fakeStore
	mu      sync.Mutex
	stalled bool
	entered chan struct{} // gets one value each time a stalled append begins
	release chan struct{} // closed to let stalled appends go on
	err     error         // what a released append returns; nil writes it
}

func newStallStore(t *testing.T) *stallStore {
	s := &stallStore{fakeStore: newFakeStore(), entered: make(chan struct{}, 16), release: make(chan struct{})}
	s.onJournal = s.appendJournal
	t.Cleanup(s.unstall) // never leave a program's call hanging
	return s
}

func (s *stallStore) stall() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stalled = true
}

// unstall lets the stalled appends go on, and the next ones pass.
func (s *stallStore) unstall() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stalled {
		s.stalled = false
		close(s.release)
	}
}

// appendJournal runs before each journal append (fakeStore.onJournal).
func (s *stallStore) appendJournal() error {
	s.mu.Lock()
	stalled, release := s.stalled, s.release
	s.mu.Unlock()
	if stalled {
		s.entered <- struct{}{}
		<-release
		return s.err
	}
	return nil
}

// waitEntered waits for a stalled append to begin, failing the test after
// a minute (pressBounded's deadline).
func (s *stallStore) waitEntered(t *testing.T) {
	t.Helper()
	select {
	case <-s.entered:
	case <-time.After(time.Minute):
		t.Fatal("no journal append began within a minute of the key")
	}
}

// stallModel is a model playing over st whose wait screen shows after
// notice without an answer from the store.
func stallModel(t *testing.T, st *stallStore, notice time.Duration) *Model {
	t.Helper()
	p := newPlayer(t, st.fakeStore, "SHA256:test", "tester", 7)
	p.StallNotice = notice
	m := New(p)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	return m
}

// pressBounded is press, failing the test when the key's Update does not
// return within a minute (the model blocked on the store call).
func pressBounded(t *testing.T, m *Model, key string) tea.Cmd {
	t.Helper()
	done := make(chan tea.Cmd, 1)
	go func() { done <- press(m, key) }()
	select {
	case cmd := <-done:
		return cmd
	case <-time.After(time.Minute):
		t.Fatalf("the key %q is still being handled a minute into a store call that does not return: the screen stays frozen, with no word", key)
		return nil
	}
}

// pressAnswered is press for a key whose store call is not stalled: on a
// loaded machine even a normal commit may outlast the tests' short
// StallNotice, and the wait screen then shows until the answer comes,
// which this feeds back as the program would.
func pressAnswered(t *testing.T, m *Model, key string) {
	t.Helper()
	cmd := pressBounded(t, m, key)
	if w, ok := m.scr.(*waitScreen); ok && w.call != nil && cmd != nil {
		m.Update(cmd())
	}
}

// TestATurnWhoseStoreCallStallsShowsTheWaitWhileTheCallGoesOn: the store's
// journal append for a move hangs (the journal table locked). Once the
// call has gone StallNotice without an answer the player reads "Waiting
// for storage", while the call goes on, not the move (it is not durable);
// keys meanwhile are not played and the screen says so. When the call
// returns the move shows, saved, and keys play again (a store call
// that hung once left the screen frozen with no word for its 15 s).
func TestATurnWhoseStoreCallStallsShowsTheWaitWhileTheCallGoesOn(t *testing.T) {
	st := newStallStore(t)
	m := stallModel(t, st, time.Millisecond)
	press(m, "enter")
	pressAnswered(t, m, ".")
	if s := plain(m); !strings.Contains(s, "Turn: 1") {
		t.Fatalf("not playing:\n%s", s)
	}
	st.stall()
	answer := pressBounded(t, m, ".")
	st.waitEntered(t) // the call is under way, and hangs
	s := strings.Join(strings.Fields(plain(m)), " ")
	if _, ok := m.scr.(*waitScreen); !ok || answer == nil || !strings.Contains(s, "Waiting for storage") {
		t.Fatalf("a move whose store call hangs shows screen %T (a command to wait for the answer: %v):\n%s", m.scr, answer != nil, s)
	}
	if strings.Contains(s, "Turn:") || !strings.Contains(s, "last showed turn 1") || !strings.Contains(s, "has not answered yet") {
		t.Fatalf("the wait while the call goes on:\n%s", s)
	}
	pressBounded(t, m, ".")
	pressBounded(t, m, "l")
	if s := strings.Join(strings.Fields(plain(m)), " "); !strings.Contains(s, "Keys pressed now are not played") {
		t.Fatalf("a key while the call goes on is not told it is not played:\n%s", s)
	}
	m.Update(WatchersMsg{}) // a watcher joining: nothing is published while the turn waits (the race detector watches)

	st.unstall()
	msg := answer() // the call's answer
	if _, cmd := m.Update(msg); cmd != nil {
		t.Errorf("the answered call left a command running: %T", cmd())
	}
	if s := plain(m); !strings.Contains(s, "Turn: 2") || strings.Contains(s, "Waiting for storage") || strings.Contains(s, "NOT SAVED") {
		t.Fatalf("once the store call returned the move is not shown, saved:\n%s", s)
	}
	if g := resumeGame(t, st.fakeStore); g.Turn() != 2 {
		t.Errorf("the store holds turn %d, the screen shows 2", g.Turn())
	}
	pressAnswered(t, m, ".")
	if s := plain(m); !strings.Contains(s, "Turn: 3") {
		t.Fatalf("play does not go on after the wait (the keys pressed during it were played?):\n%s", s)
	}
}

// TestAStalledCallThatFailsGoesOnAsAWaitForStorage: when the hanging call
// then fails as an unreachable store does (its own timeout), the wait
// screen goes on retrying as for any turn that waits for storage, and the
// move shows once a retry saves it.
func TestAStalledCallThatFailsGoesOnAsAWaitForStorage(t *testing.T) {
	st := newStallStore(t)
	st.err = fmt.Errorf("append journal: %w: timeout", errUnavailable)
	m := stallModel(t, st, time.Millisecond)
	press(m, "enter")
	st.stall()
	answer := pressBounded(t, m, ".")
	st.waitEntered(t)
	st.unstall()
	_, retry := m.Update(answer())
	w, ok := m.scr.(*waitScreen)
	if !ok || retry == nil || !strings.Contains(strings.Join(strings.Fields(plain(m)), " "), "Trying again every second") {
		t.Fatalf("a stalled call that failed as unreachable: screen %T, retrying %v:\n%s", m.scr, retry != nil, plain(m))
	}
	m.Update(storageRetry{w.stop}) // the store takes saves: the retry saves the turn
	if s := plain(m); !strings.Contains(s, "Turn: 1") || strings.Contains(s, "Waiting") {
		t.Fatalf("the retry saved the turn but it is not shown:\n%s", s)
	}
}

// TestCtrlCWhileAStoreCallHangsLeavesAndCloseWaitsForTheCall: Ctrl+C ends
// the program at once; Close returns only once the call has, so that the
// server's save at the end of the session never runs beside it.
func TestCtrlCWhileAStoreCallHangsLeavesAndCloseWaitsForTheCall(t *testing.T) {
	st := newStallStore(t)
	m := stallModel(t, st, time.Millisecond)
	press(m, "enter")
	st.stall()
	pressBounded(t, m, ".")
	st.waitEntered(t)
	_, cmd := m.Update(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	if cmd == nil {
		t.Fatal("Ctrl+C while the call hangs did not quit")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("Ctrl+C while the call hangs did not quit")
	}
	m.Update(ShutdownMsg{}) // as the server's shutdown would, meanwhile: no save beside the call
	st.unstall()
	m.Close()
	if err := m.p.Play.Save(); err != nil { // the server's end-of-session save (the race detector watches)
		t.Fatal(err)
	}
	if g := resumeGame(t, st.fakeStore); g.Turn() != 1 {
		t.Errorf("after the call and the save the store holds turn %d, want 1", g.Turn())
	}
}

// resumeGame returns the game the next login of the test key would resume.
func resumeGame(t *testing.T, st *fakeStore) interface{ Turn() int } {
	t.Helper()
	p := newPlayer(t, st, "SHA256:test", "", 7).Play
	g, _, err := p.Open()
	if err != nil || g == nil {
		t.Fatalf("no game to resume: %v", err)
	}
	return g
}
