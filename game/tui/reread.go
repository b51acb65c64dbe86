package tui

// This file reads the saved game again while the store cannot read it (a
// table locked, the database restarting): the title, and a take-over
// waiting to carry the game on, try Play.Open again every rereadEvery
// instead of saying once that the save cannot be read and never trying
// again (found: a take-over during a lock left the player on a title
// without Continue, as if the game were gone, though it was saved).

import (
	"errors"
	"time"

	tea "charm.land/bubbletea/v2"
)

// rereadEvery is the pause between two reads of a save that could not be
// read, as storageRetryEvery for a turn that waits.
const rereadEvery = time.Second

// retryable is an error that says whether the same call may succeed later:
// Play.Open's when the save is there but the store could not read it now
// (server/session.Error).
type retryable interface{ Retryable() bool }

// passing reports whether err is Play.Open's for a save that may be read
// when tried again.
func passing(err error) bool {
	var r retryable
	return errors.As(err, &r) && r.Retryable()
}

// rereader is a screen waiting to read the saved game again.
type rereader interface {
	// rereads reports whether the screen waits for another read.
	rereads() bool
	// reread reads the saved game again (Play.Open) and returns the
	// screen that follows.
	reread(m *Model) (screen, tea.Cmd)
}

// rereadTick asks the screen to read the saved game again. One from a
// wait that has ended is ignored.
type rereadTick struct{ stop chan struct{} }

// rereadIfDue returns the next read's tick when the screen waits for one
// and none is under way, and ends a tick under way that no screen waits for
// any more, so that none outlives its wait by a period.
func (m *Model) rereadIfDue() tea.Cmd {
	r, ok := m.scr.(rereader)
	if !ok || !r.rereads() {
		m.stopReread()
		return nil
	}
	if m.reread != nil { // one is under way
		return nil
	}
	stop := make(chan struct{})
	m.reread = stop
	return func() tea.Msg {
		t := time.NewTimer(rereadEvery)
		defer t.Stop()
		select {
		case <-t.C:
			return rereadTick{stop}
		case <-stop:
			return nil
		}
	}
}

// rereadDue handles a tick: the screen reads again when it is the tick
// under way and the screen still waits for it.
func (m *Model) rereadDue(msg rereadTick) (screen, tea.Cmd) {
	if msg.stop != m.reread {
		return m.scr, nil
	}
	m.reread = nil // the tick has fired: its goroutine has returned
	if r, ok := m.scr.(rereader); ok && r.rereads() {
		return r.reread(m)
	}
	return m.scr, nil
}

// stopReread ends the tick under way, if any.
func (m *Model) stopReread() {
	if m.reread != nil {
		close(m.reread)
		m.reread = nil
	}
}
