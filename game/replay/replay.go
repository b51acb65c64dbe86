// Package replay plays a finished game again from its seed and history,
// turn by turn, and checks that it ends exactly as it was recorded (the
// rule "exact or honest"): a record from other rules, or one whose history
// is damaged or does not lead to the recorded end, is refused with an
// error saying which, never shown as a different game.
//
// It is pure, as the core is: no I/O, no clock, no goroutines. The store
// keeps the records (store.Finished); the server turns one into a Record.
package replay

import (
	"errors"
	"fmt"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
)

// ErrOtherRules is returned (wrapped, naming both) when a record was played
// under other rules than the server runs now (game.Rules differs): its
// commands would make another game. Show its dump instead.
var ErrOtherRules = errors.New("recorded under other rules")

// ErrDamaged is returned (wrapped) when a record's history cannot be read:
// damaged or truncated bytes (it also wraps game.ErrCorruptHistory), or a
// record that says it has no full history.
var ErrDamaged = errors.New("the game's history is damaged")

// ErrNoHistory is returned (wrapped) for a record kept without its full
// history: a game resumed from a save written before histories were kept.
// Nothing is damaged; it cannot be replayed, but its dump reads.
var ErrNoHistory = errors.New("the game was kept without its full history")

// ErrMismatch is returned (wrapped, by a *Mismatch saying what differs) when a history
// replays, but not to the recorded end: a command refused, a game that
// ends early or not at all, another final state hash, score or cause.
var ErrMismatch = errors.New("the replay does not match the recorded game")

// Mismatch is the error (wrapping ErrMismatch) of a history that replays
// but not to its recorded end. Its Error is one sentence a player or host
// can read, naming the turn (the replay's "turn T/N": commands replayed)
// and what differs, found against recorded; Detail keeps what only a log
// needs.
type Mismatch struct {
	Turn int // the command where the replay and the record part, 1-based; Of at the end
	Of   int // commands in the history
	// What says what differs, e.g. "the score is 1695, but 1702 was
	// recorded".
	What string
	// Detail is for the host's log: the refused command as the core
	// holds it and the core's error; "" when What says all.
	Detail string
}

func (e *Mismatch) Error() string {
	return fmt.Sprintf("%v at turn %d of %d: %s", ErrMismatch, e.Turn, e.Of, e.What)
}

// Unwrap makes a Mismatch match ErrMismatch (errors.Is).
func (e *Mismatch) Unwrap() error { return ErrMismatch }

// Record is what a replay needs of a finished game, as the store keeps it
// (store.Finished).
type Record struct {
	Seed    uint64 // the game's seed
	Rules   string // game.Rules of the data it was played with
	History []byte // game.HistoryBlob at the end
	Hash    string // game.StateHash at the end
	Points  int    // game.Score at the end
	Cause   string // game.Cause at the end
	Daily   string // game.Daily: the daily challenge's date, "" for a game of its own
}

// Replay is a finished game being played again: Game is the state after
// Pos commands of Len. Not safe for concurrent use.
type Replay struct {
	rec  Record
	data *content.Tables
	cmds []game.Command
	g    *game.Game
	pos  int
}

// New checks rec against the rules of data and decodes its history, and
// returns the replay at turn 0 (the game as it started). It returns an
// error wrapping ErrOtherRules, ErrNoHistory or ErrDamaged.
func New(rec Record, data *content.Tables) (*Replay, error) {
	if now := game.Rules(data); rec.Rules != now {
		return nil, fmt.Errorf("%w: the game was played under rules %s, this server runs %s", ErrOtherRules, rec.Rules, now)
	}
	if len(rec.History) == 0 {
		return nil, ErrNoHistory
	}
	cmds, err := game.DecodeHistory(rec.History)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrDamaged, err)
	}
	if len(cmds) == 0 {
		return nil, fmt.Errorf("%w: no commands", ErrDamaged)
	}
	return &Replay{rec: rec, data: data, cmds: cmds, g: fresh(rec, data)}, nil
}

// fresh returns rec's game at turn 0: a daily one for a daily record.
func fresh(rec Record, data *content.Tables) *game.Game {
	if rec.Daily != "" {
		return game.NewDaily(rec.Seed, rec.Daily, data) // the record's seed: it was made with the host's secret
	}
	return game.New(rec.Seed, data)
}

// Game returns the game as it stands after Pos commands, for drawing. The
// caller must not change it (Apply).
func (r *Replay) Game() *game.Game { return r.g }

// Pos returns how many commands have been replayed (0 at the start).
func (r *Replay) Pos() int { return r.pos }

// Len returns how many commands the history holds: Pos is Len at the end.
func (r *Replay) Len() int { return len(r.cmds) }

// Done reports whether every command has been replayed (and checked).
func (r *Replay) Done() bool { return r.pos == len(r.cmds) }

// Step replays the next command (a no-op at the end). Replaying the last
// one checks the end against the record. An error wraps ErrMismatch; the
// replay then stays where it was.
func (r *Replay) Step() error {
	if r.Done() {
		return nil
	}
	if r.g.Over() {
		return &Mismatch{Turn: r.pos, Of: len(r.cmds),
			What: fmt.Sprintf("the game is over, yet %d more commands were recorded", len(r.cmds)-r.pos)}
	}
	if _, err := r.g.Apply(r.cmds[r.pos]); err != nil {
		what := "the game refused the recorded command"
		var imp *game.Impossible
		if errors.As(err, &imp) {
			what += fmt.Sprintf(" (%q)", imp.Msg)
		}
		return &Mismatch{Turn: r.pos + 1, Of: len(r.cmds), What: what,
			Detail: fmt.Sprintf("command %+v refused: %v", r.cmds[r.pos], err)}
	}
	r.pos++
	if r.Done() {
		return check(r.g, r.rec, len(r.cmds))
	}
	return nil
}

// Seek replays to position pos (clamped to 0..Len): forward from here, or
// from the seed for a position before this one (a game cannot be undone).
func (r *Replay) Seek(pos int) error {
	pos = max(0, min(pos, len(r.cmds)))
	if pos < r.pos {
		r.g, r.pos = fresh(r.rec, r.data), 0
	}
	for r.pos < pos {
		if err := r.Step(); err != nil {
			return err
		}
	}
	return nil
}

// NextDepth replays until the game reaches a deeper level than now, or to
// the end.
func (r *Replay) NextDepth() error {
	d := r.g.Depth()
	for !r.Done() && r.g.Depth() == d {
		if err := r.Step(); err != nil {
			return err
		}
	}
	return nil
}

// End replays to the end, checking it.
func (r *Replay) End() error { return r.Seek(len(r.cmds)) }

// Verify replays rec whole and checks its end: the final game, or an error
// wrapping ErrOtherRules, ErrNoHistory, ErrDamaged or ErrMismatch.
func Verify(rec Record, data *content.Tables) (*game.Game, error) {
	r, err := New(rec, data)
	if err != nil {
		return nil, err
	}
	if err := r.End(); err != nil {
		return nil, err
	}
	return r.Game(), nil
}

// check compares the end of a replay of n commands with the record.
func check(g *game.Game, rec Record, n int) error {
	m := &Mismatch{Turn: n, Of: n}
	switch {
	case !g.Over():
		m.What = "the recorded commands run out while the game goes on"
	case g.StateHash() != rec.Hash:
		m.What = fmt.Sprintf("the final state's hash is %.12s…, but %.12s… was recorded", g.StateHash(), rec.Hash)
	case g.Score() != rec.Points:
		m.What = fmt.Sprintf("the score is %d, but %d was recorded", g.Score(), rec.Points)
	case g.Cause() != rec.Cause:
		m.What = fmt.Sprintf("the game ended %q, but %q was recorded", g.Cause(), rec.Cause)
	default:
		return nil
	}
	return m
}
