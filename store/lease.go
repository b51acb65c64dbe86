// Leases: which node runs a player's game, with an epoch (a fencing token)
// that every write of the game carries, so that a node that lost its lease
// (paused, partitioned, slow) can never overwrite the new owner's game.

package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrLeaseHeld is returned (as a *[LeaseHeldError], naming the holder) by
// [Leases.Claim] when another node holds a live lease on the key.
var ErrLeaseHeld = errors.New("lease held by another node")

// ErrFenced is returned (wrapped, with the call and the key) by a fenced
// write (see [FencedWrites]) whose epoch is not the key's current lease
// epoch: another node claimed the key since, or the lease was never
// granted. Nothing was written. Unlike [ErrUnavailable] it is final: the
// same write will never succeed, and the caller must stop writing the game
// (the new owner has it).
var ErrFenced = errors.New("fenced: the game's lease has moved on")

// LeaseHeldError is the error of a claim refused because Node holds the
// lease on Fingerprint until Expires (by the store's clock). errors.Is(err,
// ErrLeaseHeld) is true of it.
type LeaseHeldError struct {
	Fingerprint, Node string
	Expires           time.Time
}

func (e *LeaseHeldError) Error() string {
	return fmt.Sprintf("claim %s: %v: %q until %s", e.Fingerprint, ErrLeaseHeld, e.Node, e.Expires.UTC().Format(time.RFC3339Nano))
}

// Is reports whether target is ErrLeaseHeld.
func (e *LeaseHeldError) Is(target error) bool { return target == ErrLeaseHeld }

// FencedWrites are the writes of [Saves], [Scores] and [Quarantine] under
// a lease: each
// is refused with an error wrapping [ErrFenced], writing nothing, unless
// epoch is fp's current lease epoch, and the check is atomic with the
// write (a claim that moves the lease on waits for a write in flight, or
// the write sees the new epoch). Epoch 0 is never granted, so it is always
// refused. Otherwise each behaves as the method of the same name without
// "At".
type FencedWrites interface {
	PutSaveAt(fp string, epoch uint64, blob []byte) error
	DeleteSaveAt(fp string, epoch uint64) error
	AppendJournalAt(fp string, epoch uint64, seq uint64, entry []byte) error
	FinishGameAt(fp string, epoch uint64, s Score) (rank int, err error)
	// QuarantineAt moves fp's save and journal aside (as Quarantine
	// does) only while epoch is fp's lease epoch: a node that lost the
	// key must not set aside, and so delete, the new owner's game.
	QuarantineAt(fp string, epoch uint64, reason string, now time.Time) (key string, err error)
}

// Leases grant each key (a player's fingerprint) to one node at a time,
// for a time to live, with an epoch that grows by one each time the key
// changes hands: the fencing token of the game's writes ([FencedWrites]).
//
// The ordering rule, for a node running fp's game:
//  1. Claim fp, and get its epoch;
//  2. only then read the game (Save, Journal): every write of an older
//     epoch either committed before the claim, and is read, or is refused
//     after it;
//  3. write the game only with that epoch (the view [Leases.Fenced]
//     returns), never with the unfenced Saves methods;
//  4. Renew its keys well within the time to live (a third of it), and
//     stop the game of every key Renew reports lost, or of any write that
//     returns ErrFenced, without writing again;
//  5. Release after the game's last write.
//
// The epoch, not the expiry, fences: a node whose lease lapsed but that no
// other node claimed may still write (nobody else does); from the moment
// another claim is granted, it cannot.
type Leases interface {
	FencedWrites
	// Claim grants node the lease on fp for ttl and returns its epoch: the
	// key's epoch + 1 (1 for a key never leased) when the key has no live
	// lease, or the same epoch, extended, when node already holds it live.
	// When another node holds a live lease it returns a *LeaseHeldError
	// (errors.Is ErrLeaseHeld). ttl must be positive.
	Claim(ctx context.Context, fp, node string, ttl time.Duration) (epoch uint64, err error)
	// Renew extends by ttl (from now) every lease of fps that node still
	// holds, in one write, and returns the keys of fps it no longer holds
	// (claimed by another node, or never held): their games must stop.
	// With no fps it renews nothing and only says whether the store
	// answers (an error when it does not), so that a node holding no
	// game still learns the database is away (readiness).
	Renew(ctx context.Context, node string, fps []string, ttl time.Duration) (lost []string, err error)
	// Release ends node's lease of fp at epoch, so another node may claim
	// it at once. The epoch is kept: the next claim gets epoch + 1.
	// Releasing a lease that moved on, or is not held, does nothing.
	Release(ctx context.Context, fp, node string, epoch uint64) error
	// Fenced returns fp's game as the holder of epoch writes it: every
	// write goes through FencedWrites with epoch.
	Fenced(fp string, epoch uint64) LeasedGame
}

// LeasedGame is one game's [Saves], [Scores] and [Quarantine] under a
// lease (see [Leases.Fenced]): a drop-in for the three in a session. Its writes carry the
// lease epoch and return an error wrapping [ErrFenced] once the lease
// moved on; its reads are the store's. It writes only its own key and
// its slots (SlotKey): a write for another fingerprint is an error.
type LeasedGame interface {
	Saves
	Scores
	Quarantine
}

// FencedStore is what [Fence] needs: the reads and the fenced writes.
type FencedStore interface {
	Saves
	Scores
	Quarantine
	FencedWrites
}

// Fence returns st's view of fp's game under lease epoch (see
// [Leases.Fenced]); implementations of Leases return it from Fenced.
func Fence(st FencedStore, fp string, epoch uint64) LeasedGame {
	return fenced{st: st, fp: fp, epoch: epoch}
}

// fenced is the LeasedGame view: reads pass through, writes carry epoch.
type fenced struct {
	st    FencedStore
	fp    string
	epoch uint64
}

func (f fenced) own(call, fp string) error {
	if KeyOwner(fp) != f.fp { // its own key, or one of its slots (SlotKey)
		return fmt.Errorf("%s %s: the game under lease is %s", call, fp, f.fp)
	}
	return nil
}

func (f fenced) Save(fp string) ([]byte, error)      { return f.st.Save(fp) }
func (f fenced) Journal(fp string) ([][]byte, error) { return f.st.Journal(fp) }
func (f fenced) TopScores(n int) ([]Score, error)    { return f.st.TopScores(n) }
func (f fenced) Quarantined(fp string) ([]Quarantined, error) {
	return f.st.Quarantined(fp)
}
func (f fenced) PutSave(fp string, blob []byte) error {
	return f.do("put save", fp, func() error { return f.st.PutSaveAt(fp, f.epoch, blob) })
}
func (f fenced) DeleteSave(fp string) error {
	return f.do("delete save", fp, func() error { return f.st.DeleteSaveAt(fp, f.epoch) })
}
func (f fenced) AppendJournal(fp string, seq uint64, entry []byte) error {
	return f.do("append journal", fp, func() error { return f.st.AppendJournalAt(fp, f.epoch, seq, entry) })
}
func (f fenced) FinishGame(fp string, s Score) (rank int, err error) {
	err = f.do("finish game", fp, func() error {
		rank, err = f.st.FinishGameAt(fp, f.epoch, s)
		return err
	})
	return rank, err
}

func (f fenced) Quarantine(fp, reason string, now time.Time) (key string, err error) {
	err = f.do("quarantine", fp, func() error {
		key, err = f.st.QuarantineAt(fp, f.epoch, reason, now)
		return err
	})
	return key, err
}

func (f fenced) do(call, fp string, write func() error) error {
	if err := f.own(call, fp); err != nil {
		return err
	}
	return write()
}
