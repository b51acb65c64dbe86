package tui

// This file is the screen of a turn that waits for storage, and the store
// call of a turn, run off the event loop. A turn waits in two ways:
//   - its call has not answered within Player.StallNotice (a locked table,
//     a database that stopped answering): the screen shows while the call
//     goes on, and the game is the call's until it answers;
//   - the session applied the player's command but could not reach the
//     store (PostgreSQL restarting, a connection refused or reset), so the
//     turn is not durable and must not be drawn: the screen asks the
//     session to retry every storageRetryEvery until the turn is saved.
// Either way the screen says so instead of drawing the new state and
// ignores game keys (it says they are not played); once the turn is
// saved it is drawn as if it had just been played.

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/grotto-game/grotto/game"
)

// storageRetryEvery is the pause between two tries to save a turn that
// waits for storage: a restarted PostgreSQL answers within a few seconds,
// and one try costs one connection attempt.
const storageRetryEvery = time.Second

// turnCall is one Play.Do under way off the event loop. Until done is
// closed the session and its game are the call's: nothing else may read
// or draw them.
type turnCall struct {
	done     chan struct{} // closed once Do has returned
	res      game.Result   // Do's, once done
	err      error
	panicked any // what Do panicked with, to panic with again on the event loop; nil for none
}

// do starts Play.Do(c) off the event loop.
func (m *Model) do(c game.Command) *turnCall {
	call := &turnCall{done: make(chan struct{})}
	play := m.p.Play
	go func() {
		defer close(call.done)
		defer func() { call.panicked = recover() }()
		call.res, call.err = play.Do(c)
	}()
	return call
}

// answeredWithin reports whether the call has returned within d.
func (c *turnCall) answeredWithin(d time.Duration) bool {
	select {
	case <-c.done:
		return true
	default:
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-c.done:
		return true
	case <-t.C:
		return false
	}
}

// answer returns what Do returned, once done; a panic in Do panics here,
// on the event loop, as it did when Do ran there (the program's recover
// and the server's handle it).
func (c *turnCall) answer() (game.Result, error) {
	<-c.done
	if c.panicked != nil {
		panic(c.panicked)
	}
	return c.res, c.err
}

// turnAnswered tells the wait screen that its call has returned. One for
// a wait that has ended is ignored.
type turnAnswered struct{ stop chan struct{} }

// storageRetry asks the wait screen to try saving again. A retry for a wait
// that has ended is ignored.
type storageRetry struct{ stop chan struct{} }

// waitScreen is shown while the last turn waits for storage.
type waitScreen struct {
	back  *playScreen
	res   game.Result   // the waiting turn's result, for drawing it once it is saved
	turn  int           // the turn number the screen showed before the waiting turn
	tries int           // retries so far
	stop  chan struct{} // closed when the wait ends or the program does: no tick outlives either
	note  string        // what a key pressed meanwhile is told
	// call is the turn's store call while it has not answered (the
	// game is its own until then); nil once it has, or for a turn whose
	// call returned that the store is out of reach (then retries tick).
	call *turnCall
}

// newStallScreen shows that the turn played from the play screen back is
// under way in call, which has not answered within Player.StallNotice;
// turn is the turn the player saw before it. It returns the wait for the
// call's answer.
func newStallScreen(back *playScreen, call *turnCall, turn int) (screen, tea.Cmd) {
	w := &waitScreen{back: back, turn: turn, call: call, stop: make(chan struct{})}
	stop := w.stop
	return w, func() tea.Msg {
		select {
		case <-call.done:
			return turnAnswered{stop}
		case <-stop: // the program ended first (Close waits for the call)
			return nil
		}
	}
}

// newWaitScreen shows that the turn played from the play screen back, whose
// result is res, waits for storage; turn is the turn the player saw before
// it. It returns the first retry's tick.
func newWaitScreen(back *playScreen, res game.Result, turn int) (screen, tea.Cmd) {
	w := &waitScreen{back: back, res: res, turn: turn, stop: make(chan struct{})}
	return w, w.tick()
}

// tick waits storageRetryEvery, then asks for a retry; it returns nothing,
// at once, when the wait ends or the program does first (Model.Close), so
// that no goroutine outlives the session by a retry's period.
func (w *waitScreen) tick() tea.Cmd {
	stop := w.stop
	return func() tea.Msg {
		t := time.NewTimer(storageRetryEvery)
		defer t.Stop()
		select {
		case <-t.C:
			return storageRetry{stop}
		case <-stop:
			return nil
		}
	}
}

// stopRetries ends the retries' ticks; calling it again does nothing.
func (w *waitScreen) stopRetries() {
	select {
	case <-w.stop:
	default:
		close(w.stop)
	}
}

// async shows what came of the call once it answers (the turn, or a wait
// with retries if the store is out of reach), and retries the save on each
// tick; once the turn is durable (or a failure other than an unreachable
// store ends the wait) it draws the turn.
func (w *waitScreen) async(m *Model, msg tea.Msg) (screen, tea.Cmd) {
	if a, ok := msg.(turnAnswered); ok {
		if a.stop != w.stop || w.call == nil {
			return w, nil
		}
		call := w.call
		w.call = nil
		w.stopRetries()
		res, err := call.answer()
		return w.back.answered(m, w.turn, res, err)
	}
	r, ok := msg.(storageRetry)
	if !ok || r.stop != w.stop {
		return w, nil
	}
	err := m.p.Play.Retry()
	w.tries++
	if m.p.Play.Waiting() {
		return w, w.tick()
	}
	w.stopRetries()
	return w.back.show(m, w.res, err)
}

// update ignores game keys: the turn before is not drawn yet, so a key
// would act on a state the player has not seen. (Ctrl+C is the model's:
// leave.)
func (w *waitScreen) update(m *Model, k tea.KeyPressMsg) (screen, tea.Cmd) {
	w.note = "Keys pressed now are not played; press again once your move is saved. Ctrl+C leaves."
	return w, nil
}

// leave is Ctrl+C while a turn waits: the program ends at once, and the
// server's save at the end of every session is the one more try (bounded
// by the store's own timeout): the player then reads either that the game
// is saved, or that every move the screen showed is saved and the one it
// never showed may be lost.
func (w *waitScreen) leave(m *Model) tea.Cmd {
	w.stopRetries()
	m.exit = ExitSaved
	return tea.Quit
}

func (w *waitScreen) view(m *Model) string {
	th := m.th
	width := max(1, min(m.w-2, 68))
	para := func(st func(...string) string, text string) string {
		return st(ansi.Wordwrap(text, width, ""))
	}
	plain := func(s ...string) string { return strings.Join(s, "") }
	parts := []string{
		th.title.Render("Waiting for storage"),
		para(plain, "The server cannot save your last move right now: its database is not answering. "+
			"Your last move will show once it is saved; the game carries on by itself when the database is back."),
		para(plain, fmt.Sprintf("Your screen last showed turn %d.", w.turn)),
		para(th.dim.Render, fmt.Sprintf("Trying again every second (%d tries so far). Ctrl+C leaves: your last move may then be lost.", w.tries)),
	}
	if w.call != nil { // the call goes on: nothing is retried yet
		parts[1] = para(plain, "The server is saving your last move, but its database has not answered yet. "+
			"Your last move will show once it is saved; the game carries on by itself when the database answers.")
		parts[3] = para(th.dim.Render, "Still waiting for the database's answer. Ctrl+C leaves: your last move may then be lost.")
	}
	if w.note != "" {
		parts = append(parts, para(th.impossible.Render, w.note))
	}
	return m.center(strings.Join(parts, "\n\n"))
}
