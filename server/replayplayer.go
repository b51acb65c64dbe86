// The replay player over SSH: `ssh -t host replay ID` plays a
// finished game back in a Bubble Tea program of its own (tui.NewReplayer),
// and the title's score table opens a row's replay (tui.Replays). A replay
// holds no lease and no lobby slot; it counts against --max-sessions like
// any session with a terminal, and Shutdown ends it.

package server

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"

	"github.com/grotto-game/grotto/game/replay"
	"github.com/grotto-game/grotto/game/tui"
	"github.com/grotto-game/grotto/server/finished"
	"github.com/grotto-game/grotto/server/input"
	"github.com/grotto-game/grotto/store"
)

// replayCommand returns the id of `replay ID`, and whether cmd is one.
func replayCommand(cmd []string) (id string, ok bool) {
	if len(cmd) == 2 && cmd[0] == "replay" {
		return cmd[1], true
	}
	return "", false
}

// ReplayGame returns finished game id (digits, as typed) as the replay
// player shows it: ready to play back, or, for a game recorded under other
// rules or without its history, with Replay nil and Why saying so (its dump
// is shown instead). Errors are OpenReplay's: finished.ErrNoSuchGame,
// finished.ErrHistoryDamaged, the store's.
func (s *Server) ReplayGame(id string) (tui.ReplayGame, error) {
	rg, _, err := s.replayGame(id)
	return rg, err
}

// replayGame is ReplayGame, with when the game ended.
func (s *Server) replayGame(id string) (tui.ReplayGame, time.Time, error) {
	f, r, err := s.OpenReplay(id)
	rg := tui.ReplayGame{ID: f.ID, Name: f.Score.Name, Replay: r, Dump: f.Record.Dump, Turns: f.Score.Turns}
	switch {
	case errors.Is(err, replay.ErrOtherRules):
		rg.Why = "This game was recorded under other rules than this server plays now, so it cannot be played back exactly; here is its account instead."
	case errors.Is(err, replay.ErrNoHistory):
		rg.Why = "This game was kept without its full history (it began before histories were kept), so it cannot be played back; here is its account instead."
	case err != nil:
		return tui.ReplayGame{}, time.Time{}, err
	}
	return rg, f.Score.Date, nil
}

// replaySession runs `ssh -t host replay ID` on a session with a terminal:
// a replayer program, run by the rest of the chain (next), or one line and
// status 1 when the game cannot be read.
func (s *Server) replaySession(sess ssh.Session, next ssh.Handler, id string) {
	// Counted from here, before the game is read and verified (a whole
	// replay, which takes a while): Shutdown waits for this session's
	// goodbye as for a player's, instead of closing its connection while
	// it verifies (a tester found it did not).
	if !s.replays.running.begin() {
		wish.Fatalln(sess, shutdownLine+"\r")
		return
	}
	defer s.replays.running.end()
	logger := s.log.With("fp", sess.Context().Value(ctxIdentity).(identity).fp, "replay", id)
	rg, err := s.ReplayGame(id)
	if err != nil {
		if !errors.Is(err, finished.ErrNoSuchGame) && !errors.Is(err, finished.ErrDailyNotOver) {
			logger.Error("replay", "err", err)
		}
		wish.Fatalln(sess, "grotto: "+finished.Problem(err, id)+"\r")
		return
	}
	// The same screen options and key sanitizer as a game session (seat.go,
	// server/input).
	seat := sshSeat{sess: sess, next: next, s: s}
	ctx, keys := seat.keys()
	kb := input.New(ctx, keys, s.cfg.Limits.InputBytesPerSec, logger, nil)
	opts := append(seat.programOptions(), tea.WithoutSignalHandler(), tea.WithFPS(s.cfg.FPS), kb.Option(),
		tea.WithOutput(kb.Terminal(sess)))
	prog := tea.NewProgram(tui.NewReplayer(rg, s.data), opts...)
	kb.Start(prog)
	if !s.replays.running.add(prog) {
		wish.Fatalln(sess, shutdownLine+"\r")
		return
	}
	defer s.replays.running.remove(prog)
	logger.Info("replay started", "game", rg.ID, "playable", rg.Replay != nil)
	sess.Context().SetValue(ctxProgram, prog)
	next(sess) // guard.WindowSizes and the bubbletea middleware run prog
	if s.replays.running.isClosing() {
		wish.Println(sess, "The server is shutting down; the replay has stopped. Please try again later.\r")
	}
	sess.Exit(0)
}

// replayPrograms are the replay sessions under way and their programs,
// for Shutdown to end and wait for.
type replayPrograms struct {
	mu      sync.Mutex
	progs   map[*tea.Program]struct{}
	closing bool
	running sync.WaitGroup // one per session begun and not yet ended
}

// begin counts a replay session from its start, before its game is read;
// false once Shutdown has begun (the session is to say so and end). Each
// begin that returns true is matched by one end, after the goodbye.
func (r *replayPrograms) begin() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closing {
		return false
	}
	r.running.Add(1)
	return true
}

// end is the last thing a begun session does, once it has said goodbye.
func (r *replayPrograms) end() { r.running.Done() }

// add registers p, the program of a begun session; false once Shutdown
// has begun (p is not to run).
func (r *replayPrograms) add(p *tea.Program) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closing {
		return false
	}
	if r.progs == nil {
		r.progs = map[*tea.Program]struct{}{}
	}
	r.progs[p] = struct{}{}
	return true
}

// remove lets go of p once it has ended.
func (r *replayPrograms) remove(p *tea.Program) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.progs, p)
}

func (r *replayPrograms) isClosing() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.closing
}

// shutdown quits every replay program, refuses new sessions, and waits
// until every session begun (those still reading their game too) has
// said goodbye, or ctx ends.
func (r *replayPrograms) shutdown(ctx context.Context) {
	r.mu.Lock()
	r.closing = true
	progs := make([]*tea.Program, 0, len(r.progs))
	for p := range r.progs {
		progs = append(progs, p)
	}
	r.mu.Unlock()
	for _, p := range progs {
		p.Quit()
	}
	done := make(chan struct{})
	go func() { r.running.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
	}
}

// titleReplays opens the title's score rows for replay (tui.Replays).
type titleReplays struct{ s *Server }

// OpenReplay implements tui.Replays, in the player's words on error.
func (t titleReplays) OpenReplay(id uint64) (tui.ReplayGame, error) {
	ids := strconv.FormatUint(id, 10)
	rg, err := t.s.ReplayGame(ids)
	if err != nil {
		if !errors.Is(err, finished.ErrNoSuchGame) && !errors.Is(err, finished.ErrDailyNotOver) {
			t.s.log.Error("replay from the title", "replay", id, "err", err)
		}
		return rg, errors.New(finished.Sentence(finished.Problem(err, ids)))
	}
	return rg, nil
}

// upper returns s with its first letter in upper case (ASCII).
func upper(s string) string {
	if s != "" && s[0] >= 'a' && s[0] <= 'z' {
		return string(s[0]-'a'+'A') + s[1:]
	}
	return s
}

// scoreRows are scores as the title shows them.
func scoreRows(scores []store.Score) []tui.ScoreRow {
	rows := make([]tui.ScoreRow, len(scores))
	for i, sc := range scores {
		rows[i] = tui.ScoreRow{Name: sc.Name, Points: sc.Points, Cause: sc.Cause, GameID: sc.GameID} // the title converts the cause (game.ThirdPerson)
	}
	return rows
}
